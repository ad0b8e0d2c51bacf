// Whether this instance is ready: the database answers, the job queue runs, and every migration
// it started with is applied. A failed check's details (hosts, URLs) go to the log only.
import type { PgBoss, TDatabase } from '@incident-desk/db';
import type { Logger } from '../log';

type Check = 'ok' | 'failed';

/** Logs why a check failed, and answers 'failed'. */
export type FailedCheck = (what: string, error: unknown) => Check;

export function failedCheck(logger: Logger): FailedCheck {
  return (what, error) => {
    // the details (hosts, URLs) go to the log only
    logger.warn(`readiness: ${what} failed`, { error });
    return 'failed';
  };
}

export interface ReadinessProbe {
  db: TDatabase;
  boss: PgBoss;
  /** A queue the readiness check reads through pg-boss (its own connection on PostgreSQL). */
  probeQueue: string;
  /** Migrations recorded as applied when this process opened the database. */
  migrationsAtStart: number;
  /** False once pg-boss has stopped (the connector is closing). */
  queueRunning: () => boolean;
}

export interface Readiness {
  ok: boolean;
  checks: { database: Check; queue: Check; migrations: Check };
}

export async function readiness(probe: ReadinessProbe, failed: FailedCheck): Promise<Readiness> {
  const { db, boss } = probe;
  const database: Check = await db.prisma
    .$queryRawUnsafe('SELECT 1')
    .then((): Check => 'ok')
    .catch((error: unknown) => failed('database', error));
  const queue: Check = !probe.queueRunning()
    ? 'failed'
    : await boss
        .getQueue(probe.probeQueue)
        .then((found): Check => (found ? 'ok' : failed('queue', new Error('queue missing'))))
        .catch((error: unknown) => failed('queue', error));
  const migrations: Check =
    database === 'failed'
      ? 'failed'
      : await db.prisma
          .$queryRawUnsafe<{ applied: bigint | number; unfinished: bigint | number }[]>(
            `SELECT count(*) FILTER (WHERE finished_at IS NOT NULL) AS applied,
               count(*) FILTER (WHERE finished_at IS NULL) AS unfinished
             FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
          )
          .then(([row]): Check => {
            const ok =
              Number(row?.applied ?? 0) >= probe.migrationsAtStart &&
              Number(row?.unfinished ?? 0) === 0;
            return ok ? 'ok' : failed('migrations', new Error('migrations not all applied'));
          })
          .catch((error: unknown) => failed('migrations', error));
  return {
    ok: database === 'ok' && queue === 'ok' && migrations === 'ok',
    checks: { database, queue, migrations },
  };
}
