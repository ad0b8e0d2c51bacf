// A running job's worker refreshes the job's heartbeat every few seconds (pg-boss). A process that
// dies (SIGKILL, a lost machine) leaves its jobs active with a heartbeat that stops moving; pg-boss
// itself only notices at its next monitor pass, up to a minute later, and its time limit is
// minutes. Every instance sweeps every few seconds instead: a job silent past its heartbeat and a
// grace is failed back into retry, so it runs again within seconds on whichever instance is alive,
// still ahead of its key's later jobs. A job this process is running is never swept (a slow
// heartbeat on a busy PGlite connection is not a death), and the fail is fenced to the attempt
// that went silent, so a job that moved on meanwhile is left alone.
import { defaultJobQueueSchema, type PgBoss, type TDatabase } from '@incident-desk/db';

export interface DeadJobSweepOptions {
  db: TDatabase;
  boss: PgBoss;
  queues: readonly string[];
  /** Whether this process is running the job (its heartbeat is then not a question). */
  isRunningHere: (jobId: string) => boolean;
  /** Silence past the job's heartbeat interval before it counts as dead. Default 5 s. */
  graceSeconds?: number;
  /** Default 3 000 ms. */
  intervalMs?: number;
  onRecovered: (job: { id: string; queue: string; silentSeconds: number }) => void;
  onError: (error: unknown) => void;
}

export interface DeadJobSweep {
  /** One sweep now: the number of jobs handed back (tests). */
  sweep(): Promise<number>;
  stop(): void;
}

interface SilentJob {
  id: string;
  name: string;
  retryCount: number;
  silentSeconds: number;
}

export function startDeadJobSweep(options: DeadJobSweepOptions): DeadJobSweep {
  const { db, boss } = options;
  const schema = defaultJobQueueSchema(db);
  const graceSeconds = options.graceSeconds ?? 5;

  async function sweep(): Promise<number> {
    const silent = await db.prisma.$queryRawUnsafe<SilentJob[]>(
      `SELECT id::text AS id, name, retry_count AS "retryCount",
              EXTRACT(EPOCH FROM now() - heartbeat_on)::float8 AS "silentSeconds"
         FROM "${schema}".job
        WHERE name = ANY($1::text[])
          AND state = 'active'
          AND heartbeat_seconds IS NOT NULL
          AND heartbeat_on < now() - (heartbeat_seconds + $2::int) * interval '1 second'
        LIMIT 100`,
      [...options.queues],
      graceSeconds,
    );
    let recovered = 0;
    for (const job of silent) {
      if (options.isRunningHere(job.id)) continue;
      const result = await boss.fail(
        job.name,
        { id: job.id, retryCount: Number(job.retryCount) },
        { recovered: `its worker stopped: no heartbeat for ${Math.round(job.silentSeconds)} s` },
      );
      // pg-boss types the answer as {}; it carries `affected`, 0 when the attempt had moved on
      if ((result as { affected?: number }).affected === 0) continue;
      recovered += 1;
      options.onRecovered({ id: job.id, queue: job.name, silentSeconds: job.silentSeconds });
    }
    return recovered;
  }

  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweep()
      .catch(options.onError)
      .finally(() => (sweeping = false));
  }, options.intervalMs ?? 3_000);
  timer.unref();
  return { sweep, stop: () => clearInterval(timer) };
}
