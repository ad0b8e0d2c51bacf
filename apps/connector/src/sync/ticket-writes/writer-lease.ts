// Which instance writes an account's waiting ticket changes: a row in ticket_writer_lease, taken or
// renewed by one statement at the start of each pass and running out seconds later. Nothing is
// held between passes (no connection, no session lock), so a writer waiting for a budget, a pause
// or a companion change costs the pool nothing. A lease runs out, or is void at once when its
// holder's heartbeat is dead (worker/instance-liveness.ts); the lease is renewed again, in the
// same transaction, when a pass marks what it is about to send, so a pass that outlived its lease
// sends nothing.
import { querySql, type SqlExecutor, type TDatabase } from '@incident-desk/db';
import { instanceAliveSql } from '../../worker';

/** How long a lease lasts unless renewed: a pass must mark what it sends within it. */
export const WRITER_LEASE_MS = 10_000;

export interface WriterLeaseRequest {
  accountId: string;
  /** This instance's id (connector_instance.id). */
  holder: string;
  now: Date;
  leaseMs?: number;
  /** Heartbeats at or before this are dead (InstanceLiveness.aliveCutoff()). */
  aliveCutoff: Date;
}

export type WriterLease =
  | {
      held: true;
      /** The dead instance whose lease this took over, when it was one. */
      tookOverFrom: string | null;
    }
  | { held: false; holder: string; expiresAt: Date };

/**
 * Takes the account's lease when it is free, run out, held by a dead instance, or already this
 * holder's (then renews it): one statement, so two instances never both hold it.
 */
export async function takeWriterLease(
  db: TDatabase,
  request: WriterLeaseRequest,
): Promise<WriterLease> {
  const expiresAt = new Date(request.now.getTime() + (request.leaseMs ?? WRITER_LEASE_MS));
  const [row] = await querySql<{
    held: boolean;
    previous_holder: string | null;
    previous_expires_at: Date | null;
    previous_alive: boolean | null;
  }>(
    db,
    `WITH previous AS (
       SELECT lease.holder, lease.expires_at, ${instanceAliveSql('lease.holder', '$5')} AS alive
         FROM ticket_writer_lease AS lease
        WHERE lease.account_id = $1::uuid
     ), taken AS (
       INSERT INTO ticket_writer_lease AS lease (account_id, holder, expires_at)
       VALUES ($1::uuid, $2, $3)
       ON CONFLICT (account_id) DO UPDATE
          SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
        WHERE lease.holder = EXCLUDED.holder
           OR lease.expires_at <= $4
           OR NOT ${instanceAliveSql('lease.holder', '$5')}
       RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM taken) AS held,
            previous.holder AS previous_holder,
            previous.expires_at AS previous_expires_at,
            previous.alive AS previous_alive
       FROM (SELECT 1) AS one LEFT JOIN previous ON true`,
    [
      request.accountId,
      request.holder,
      expiresAt.toISOString(),
      request.now.toISOString(),
      request.aliveCutoff.toISOString(),
    ],
  );
  if (!row) throw new Error('the writer lease statement returned no row');
  if (row.held) {
    const previous = row.previous_holder;
    return {
      held: true,
      tookOverFrom:
        previous !== null && previous !== request.holder && !row.previous_alive ? previous : null,
    };
  }
  return {
    held: false,
    holder: row.previous_holder ?? '',
    expiresAt: row.previous_expires_at ?? request.now,
  };
}

/**
 * Inside the transaction that marks a pass's writes: renews the lease only while this holder still
 * has it. False means another instance took it over (this pass outlived its lease): send nothing.
 */
export async function renewWriterLease(
  sql: SqlExecutor,
  request: Omit<WriterLeaseRequest, 'aliveCutoff'>,
): Promise<boolean> {
  const { rows } = await sql.executeSql(
    `UPDATE ticket_writer_lease SET expires_at = $3
      WHERE account_id = $1::uuid AND holder = $2 AND expires_at > $4
     RETURNING 1 AS renewed`,
    [
      request.accountId,
      request.holder,
      new Date(request.now.getTime() + (request.leaseMs ?? WRITER_LEASE_MS)).toISOString(),
      request.now.toISOString(),
    ],
  );
  return rows.length === 1;
}

/** Lets the lease go when nothing waits (or at stop), so any instance signalled next takes it at once. */
export async function releaseWriterLease(
  db: TDatabase,
  accountId: string,
  holder: string,
): Promise<void> {
  await db.prisma.ticketWriterLease.deleteMany({ where: { accountId, holder } });
}
