// What the connector's tables say about a ticket the soak found short of notes or with a stale
// status: its incident's jobs, the changes waiting for the writer, the link, the report and any
// pause. Written beside the report so a failed run explains itself.
import type { TDatabase } from '@incident-desk/db';

export interface SuspectTicket {
  accountId: string;
  ticketId: number;
  incidentId: string;
  why: string;
  /** The Zendesk comments in question, as the sandbox holds them. */
  notes?: unknown[];
  /** Event references the ticket lacks a note for: their receipts and jobs are looked up. */
  lostRefs?: string[];
}

const plain = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)));

export async function diagnoseTickets(
  db: TDatabase,
  bossSchema: string,
  suspects: readonly SuspectTicket[],
): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const suspect of suspects) {
    const { accountId, ticketId, incidentId } = suspect;
    const jobs = await db.prisma.$queryRawUnsafe<unknown[]>(
      `SELECT id, state, retry_count, created_on, started_on, completed_on, start_after, output,
              data->'event'->>'id' AS event, data->'event'->>'event' AS name
         FROM "${bossSchema}".job
        WHERE name = 'incident-event' AND data->'event'->'data'->>'incidentId' = $1
        ORDER BY created_on`,
      incidentId,
    );
    out.push(
      plain({
        ...suspect,
        links: await db.prisma.incidentLink.findMany({ where: { accountId, incidentId } }),
        reports: await db.prisma.reportAttempt.findMany({
          where: { accountId, ticketId: BigInt(ticketId) },
        }),
        pendingChanges: await db.prisma.pendingTicketChange.findMany({
          where: { accountId, incidentId },
          select: {
            ticketId: true,
            eventRef: true,
            eventName: true,
            readyAt: true,
            writeRef: true,
            writtenAt: true,
            failedReason: true,
            createdAt: true,
          },
          orderBy: { createdAt: 'asc' },
        }),
        writesSent: (
          await db.prisma.ticketWriteLog.findMany({
            where: { accountId, ticketId: BigInt(ticketId) },
            select: { requestId: true, sentAt: true },
            orderBy: { sentAt: 'asc' },
          })
        ).map((row) => `${row.sentAt.toISOString()} ${row.requestId}`),
        writePause: await db.prisma.ticketWritePause.findUnique({ where: { accountId } }),
        syncFailures: await db.prisma.syncFailure.findMany({
          where: { accountId, OR: [{ incidentId }, { ticketId: BigInt(ticketId) }] },
        }),
        jobs,
        lostReceipts: await receiptsOf(db, bossSchema, accountId, suspect.lostRefs ?? []),
      }),
    );
  }
  return out;
}

/** Whether each event was acknowledged into the inbox, and what became of its job (same id). */
async function receiptsOf(
  db: TDatabase,
  bossSchema: string,
  accountId: string,
  refs: readonly string[],
): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const ref of refs) {
    const receipt = await db.prisma.webhookReceipt.findFirst({
      where: { source: 'incident', dedupeKey: `${accountId}:${ref}` },
      select: { id: true, receivedAt: true },
    });
    const job = receipt
      ? await db.prisma.$queryRawUnsafe<unknown[]>(
          `SELECT id, name, state, retry_count, created_on, completed_on, output FROM "${bossSchema}".job WHERE id = $1::uuid`,
          receipt.id,
        )
      : [];
    out.push({ ref, receipt, job });
  }
  return out;
}
