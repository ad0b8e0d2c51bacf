// The benchmark fails if it lost data: every event acknowledged with a 2xx must have exactly one
// receipt and one job, and no receipt may exist without its job (they commit together).
import type { BenchDatabase } from './bench-database';

export interface IngestCount {
  acknowledged: number;
  acknowledgedReceipts: number;
  acknowledgedJobs: number;
  receiptsTotal: number;
  jobsTotal: number;
  lossless: boolean;
}

export async function countIngested(
  db: BenchDatabase,
  queue: string,
  acknowledgedKeys: string[],
): Promise<IngestCount> {
  const [row] = await db.query<Record<string, number>>(
    `SELECT
       (SELECT count(*)::int FROM webhook_receipt
         WHERE source = 'incident' AND dedupe_key = ANY($1::text[])) AS acknowledged_receipts,
       (SELECT count(*)::int FROM pgboss.job j JOIN webhook_receipt r ON r.id = j.id
         WHERE j.name = $2 AND r.source = 'incident' AND r.dedupe_key = ANY($1::text[])) AS acknowledged_jobs,
       (SELECT count(*)::int FROM webhook_receipt) AS receipts_total,
       (SELECT count(*)::int FROM pgboss.job WHERE name = $2) AS jobs_total,
       (SELECT count(*)::int FROM webhook_receipt r
         WHERE NOT EXISTS (SELECT 1 FROM pgboss.job j WHERE j.name = $2 AND j.id = r.id)) AS receipts_without_job`,
    [acknowledgedKeys, queue],
  );
  if (!row) throw new Error('the count query returned nothing');
  const acknowledged = new Set(acknowledgedKeys).size;
  const count = {
    acknowledged,
    acknowledgedReceipts: Number(row.acknowledged_receipts),
    acknowledgedJobs: Number(row.acknowledged_jobs),
    receiptsTotal: Number(row.receipts_total),
    jobsTotal: Number(row.jobs_total),
  };
  return {
    ...count,
    lossless:
      acknowledged === acknowledgedKeys.length &&
      count.acknowledgedReceipts === acknowledged &&
      count.acknowledgedJobs === acknowledged &&
      Number(row.receipts_without_job) === 0 &&
      count.jobsTotal === count.receiptsTotal,
  };
}
