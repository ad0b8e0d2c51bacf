// The connector's own evidence uploads come back as incident history ("1 attachment added", in
// the sandbox's words; the service's are not shown): no news for the ticket that sent them. The
// connector knows what it sent, as with its own comments: each attach request is recorded before
// it is sent, and a history entry that says that many attachments were added absorbs one such
// record. One record absorbs one echo, so an analyst adding files later is still shown.
import type { TDatabase } from '@incident-desk/db';
import { OWN_NOTE_RETENTION_MS } from './ticket-writer';

/** "1 attachment added", "3 attachments added", "1 attachment(s) added" (the older wording). */
const ATTACHMENTS_ADDED = /^\s*(\d{1,6}) attachments?(?:\(s\))? added\.?\s*$/i;

export async function recordOwnEvidenceUpload(
  db: TDatabase,
  accountId: string,
  incidentId: string,
  files: number,
  now: Date,
): Promise<{ id: string }> {
  return db.prisma.ownEvidenceUpload.create({
    data: { accountId, incidentId, files, createdAt: now },
    select: { id: true },
  });
}

/** The upload certainly did not reach the incident: no echo will come. */
export async function forgetOwnEvidenceUpload(db: TDatabase, id: string): Promise<void> {
  await db.prisma.ownEvidenceUpload.deleteMany({ where: { id } });
}

/** Whether this history entry echoes an upload of the connector's; if so it is absorbed. */
export async function absorbOwnEvidenceEcho(
  db: TDatabase,
  accountId: string,
  incidentIds: readonly string[],
  event: { ref: string; message: string },
  now: Date,
): Promise<boolean> {
  const count = ATTACHMENTS_ADDED.exec(event.message)?.[1];
  if (count === undefined) return false;
  const since = new Date(now.getTime() - OWN_NOTE_RETENTION_MS);
  const already = await db.prisma.ownEvidenceUpload.findFirst({
    where: { accountId, incidentId: { in: [...incidentIds] }, echoRef: event.ref },
    select: { id: true },
  });
  if (already) return true; // this event, applied again
  for (;;) {
    const candidate = await db.prisma.ownEvidenceUpload.findFirst({
      where: {
        accountId,
        incidentId: { in: [...incidentIds] },
        files: Number(count),
        echoedAt: null,
        createdAt: { gte: since },
      },
      orderBy: { createdAt: 'asc' },
      select: { id: true },
    });
    if (!candidate) return false;
    // claimed with a conditional update: two deliveries of two echoes absorb two records
    const claimed = await db.prisma.ownEvidenceUpload.updateMany({
      where: { id: candidate.id, echoedAt: null },
      data: { echoedAt: now, echoRef: event.ref },
    });
    if (claimed.count === 1) return true;
  }
}
