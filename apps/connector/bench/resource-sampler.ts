// What the connector's instances hold while a benchmark runs, sampled every 500 ms: each
// process's resident memory (VmRSS of /proc/<pid>/status) and, on PostgreSQL, the server
// connections they have open (pg_stat_activity, told apart by the application_name each
// instance's DATABASE_URL sets). Figures are maxima over the run.
import { readFile } from 'node:fs/promises';
import pg from 'pg';

export interface SampledProcess {
  label: string;
  pid: number;
}

interface ResourceFigures {
  samples: number;
  /** Highest VmRSS seen per process, in MiB. */
  maxRssMb: Record<string, number>;
  /** PostgreSQL only (null on PGlite: one in-process connection). */
  connections: {
    /** Most connections open at once, all instances together. */
    maxOpen: number;
    /** Most of them running a statement at once. */
    maxActive: number;
    /** Most open at once per application_name (one per instance). */
    maxOpenByInstance: Record<string, number>;
  } | null;
}

export interface ResourceSampler {
  /** Takes a last sample, stops and gives the maxima (the same answer if called again). */
  stop(): Promise<ResourceFigures>;
}

/** An application_name on a PostgreSQL URL: its connections can then be told apart. */
export function withApplicationName(databaseUrl: string, name: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('application_name', name);
  return url.toString();
}

async function rssMb(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null; // exited
  }
}

export async function startResourceSampler(input: {
  /** The processes to read now (instances come and go). */
  processes: () => SampledProcess[];
  /** The server, and the application_name prefix of the instances' connections. */
  postgres?: { url: string; applicationNamePrefix: string };
  intervalMs?: number;
}): Promise<ResourceSampler> {
  const maxRss = new Map<string, number>();
  const maxByName = new Map<string, number>();
  let maxOpen = 0;
  let maxActive = 0;
  let samples = 0;
  let client: pg.Client | undefined;
  if (input.postgres) {
    client = new pg.Client({
      connectionString: withApplicationName(input.postgres.url, 'bench_resource_sampler'),
    });
    await client.connect();
  }

  const sample = async () => {
    for (const { label, pid } of input.processes()) {
      const mb = await rssMb(pid);
      if (mb !== null) maxRss.set(label, Math.max(maxRss.get(label) ?? 0, mb));
    }
    if (client && input.postgres) {
      const { rows } = await client.query<{ name: string; open: number; active: number }>(
        `SELECT application_name AS name, count(*)::int AS open,
                count(*) FILTER (WHERE state = 'active')::int AS active
           FROM pg_stat_activity
          WHERE left(application_name, length($1)) = $1
          GROUP BY application_name`,
        [input.postgres.applicationNamePrefix],
      );
      maxOpen = Math.max(
        maxOpen,
        rows.reduce((sum, row) => sum + row.open, 0),
      );
      maxActive = Math.max(
        maxActive,
        rows.reduce((sum, row) => sum + row.active, 0),
      );
      for (const row of rows)
        maxByName.set(row.name, Math.max(maxByName.get(row.name) ?? 0, row.open));
    }
    samples += 1;
  };

  let running: Promise<void> = Promise.resolve();
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return; // a slow sample is not stacked on
    busy = true;
    running = sample()
      .catch(() => undefined) // a sample that fails (the server restarting) is skipped
      .finally(() => (busy = false));
  }, input.intervalMs ?? 500);

  let stopped: Promise<ResourceFigures> | undefined;
  return {
    stop: () =>
      (stopped ??= (async () => {
        clearInterval(timer);
        await running;
        await sample().catch(() => undefined); // a last one: a short run has at least one
        await client?.end().catch(() => undefined);
        return {
          samples,
          maxRssMb: Object.fromEntries(
            [...maxRss].map(([label, mb]) => [label, Number(mb.toFixed(1))]),
          ),
          connections: input.postgres
            ? { maxOpen, maxActive, maxOpenByInstance: Object.fromEntries(maxByName) }
            : null,
        };
      })()),
  };
}
