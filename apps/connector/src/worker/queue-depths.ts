// Live queue depths for the metrics and /healthz's details: read from pg-boss's job table in one
// query at each scrape (pg-boss's own counts are refreshed only every monitor pass), and the ticket
// writer's backlog as the `ticket-write` queue: recorded changes not yet on their tickets (held for
// a companion, paced under Zendesk's limits, or paused by a 429).
import { defaultJobQueueSchema, type TDatabase } from '@incident-desk/db';
import type { QueueDepthReader } from '../metrics';

interface DepthRow {
  name: string;
  queued: bigint | number;
  active: bigint | number;
  deferred: bigint | number;
  oldest: number | string | null;
}

const TICKET_WRITE_BACKLOG = 'ticket-write';

export function queueDepthReader(db: TDatabase, queues: readonly string[]): QueueDepthReader {
  const schema = `"${defaultJobQueueSchema(db).replace(/"/g, '""')}"`;
  const sql = `SELECT name,
      count(*) FILTER (WHERE state IN ('created', 'retry') AND start_after <= now()) AS queued,
      count(*) FILTER (WHERE state = 'active') AS active,
      count(*) FILTER (WHERE state IN ('created', 'retry') AND start_after > now()) AS deferred,
      extract(epoch FROM now() - min(created_on)
        FILTER (WHERE state IN ('created', 'retry') AND start_after <= now()))::float8 AS oldest
    FROM ${schema}.job
    WHERE name = ANY($1::text[]) AND state IN ('created', 'retry', 'active')
    GROUP BY name`;
  return {
    async read() {
      const rows = await db.prisma.$queryRawUnsafe<DepthRow[]>(sql, [...queues]);
      const byName = new Map(rows.map((row) => [row.name, row]));
      const backlog = await db.prisma.pendingTicketChange.aggregate({
        where: { writtenAt: null, failedReason: null },
        _count: { _all: true },
        _min: { createdAt: true },
      });
      const oldestChange = backlog._min.createdAt;
      const writes = {
        queue: TICKET_WRITE_BACKLOG,
        queued: backlog._count._all,
        active: 0,
        deferred: 0,
        oldestAgeSeconds: oldestChange
          ? Math.max(0, (Date.now() - oldestChange.getTime()) / 1000)
          : 0,
      };
      const jobs = queues.map((queue) => {
        const row = byName.get(queue);
        return {
          queue,
          queued: Number(row?.queued ?? 0),
          active: Number(row?.active ?? 0),
          deferred: Number(row?.deferred ?? 0),
          oldestAgeSeconds: Math.max(0, Number(row?.oldest ?? 0)),
        };
      });
      return [...jobs, writes];
    },
  };
}
