// The lease of changes a request carries: until the request can have finished, no pass of any
// instance touches them; a dead instance's lease is void at once.
import { querySql, withSqlTransaction, type TDatabase } from '@incident-desk/db';
import { instanceAliveSql } from '../../worker';
import { noteDigest } from './note-identity';
import type { PassWriter } from './drain-options';
import type { TicketBatch } from './ticket-batch';
import { renewWriterLease } from './writer-lease';

/** The pass outlived the account's writer lease, or another pass marked the same changes first. */
export class PassOvertaken extends Error {
  override name = 'PassOvertaken';
}

/**
 * Changes a dead instance was sending wait no longer for their lease: they are due now, and the
 * pass settles them as any earlier attempt (the job's status, else the reference on the ticket).
 */
export async function resumeDeadInstancesChanges(
  db: TDatabase,
  accountId: string,
  writer: PassWriter,
  now: Date,
): Promise<{ instance: string; changes: number }[]> {
  const rows = await querySql<{ holder: string }>(
    db,
    // `sent` is the row before the update: RETURNING names the holder it had
    `UPDATE pending_ticket_change AS change
        SET ready_at = $2, write_holder = NULL
       FROM pending_ticket_change AS sent
      WHERE sent.id = change.id AND change.account_id = $1::uuid
        AND change.written_at IS NULL AND change.failed_reason IS NULL
        AND change.write_ref IS NOT NULL AND change.ready_at > $2
        AND change.write_holder IS NOT NULL AND change.write_holder <> $3
        AND NOT ${instanceAliveSql('change.write_holder', '$4')}
     RETURNING sent.write_holder AS holder`,
    [accountId, now.toISOString(), writer.instanceId, writer.aliveCutoff().toISOString()],
  );
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.holder, (counts.get(row.holder) ?? 0) + 1);
  return [...counts].map(([instance, changes]) => ({ instance, changes }));
}

/**
 * The references and leases of a pass's writes, in one transaction that also renews the account's
 * writer lease: when another instance took the lease over, or changed one of the rows since this
 * pass read them, nothing is marked (PassOvertaken). The notes' echoes are recorded by the sender
 * (send-ticket-update.ts), right before the request.
 */
export async function markSending(
  db: TDatabase,
  accountId: string,
  batches: readonly TicketBatch[],
  lease: { until: Date; holder: string | null },
  writer: PassWriter | undefined,
  now: Date,
): Promise<void> {
  const rows = batches.flatMap((batch) => {
    const digest = batch.body === undefined ? null : noteDigest(batch.body);
    return batch.rows.map((row) => ({
      row,
      ref: batch.writeRef,
      byNote: batch.foundByNote,
      digest,
    }));
  });
  await withSqlTransaction(db, async (sql) => {
    if (
      writer &&
      !(await renewWriterLease(sql, {
        accountId,
        holder: writer.instanceId,
        now,
        ...(writer.leaseMs === undefined ? {} : { leaseMs: writer.leaseMs }),
      }))
    )
      throw new PassOvertaken('the account writer lease is held by another instance');
    const { rows: marked } = await sql.executeSql(
      `UPDATE pending_ticket_change AS change
          SET write_ref = sending.ref, write_ref_in_note = sending.by_note,
              write_note_digest = sending.digest, write_sent_at = $8, write_job_id = NULL,
              ready_at = $4, write_holder = $5
         FROM unnest($1::uuid[], $2::text[], $3::text[], $6::boolean[], $7::text[])
                AS sending(id, ref, previous_ref, by_note, digest)
        WHERE change.id = sending.id
          AND change.written_at IS NULL AND change.failed_reason IS NULL
          AND change.write_job_id IS NULL
          AND change.write_ref IS NOT DISTINCT FROM sending.previous_ref
       RETURNING change.id`,
      [
        rows.map(({ row }) => row.id),
        rows.map(({ ref }) => ref),
        rows.map(({ row }) => row.writeRef),
        lease.until.toISOString(),
        lease.holder,
        rows.map(({ byNote }) => byNote),
        rows.map(({ digest }) => digest),
        now.toISOString(),
      ],
    );
    if (marked.length !== rows.length)
      throw new PassOvertaken('another pass changed these ticket changes first');
  });
}
