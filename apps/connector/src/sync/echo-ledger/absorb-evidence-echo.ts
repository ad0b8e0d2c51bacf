// The connector's own evidence uploads come back as incident history ("1 attachment added", in
// the sandbox's words; the service's are not shown): no news for the ticket that sent them. Each
// attach request is recorded before it is sent (recordEvidenceUpload), and a history entry that
// says that many attachments were added absorbs one such entry. One upload absorbs one echo, so an
// analyst adding files later is still shown.
import type { TDatabase } from '@incident-desk/db';
import { ECHO_RETENTION_MS } from './echo-windows';

/** "1 attachment added", "3 attachments added", "1 attachment(s) added" (the older wording). */
const ATTACHMENTS_ADDED = /^\s*(\d{1,6}) attachments?(?:\(s\))? added\.?\s*$/i;

/** Whether a history message says that attachments were added (anyone's upload). */
export function isAttachmentsEntry(message: string): boolean {
  return ATTACHMENTS_ADDED.test(message);
}

/** Whether this history entry echoes an upload of the connector's; if so it is absorbed. */
export async function absorbEvidenceEcho(
  db: TDatabase,
  accountId: string,
  incidentIds: readonly string[],
  event: { ref: string; message: string },
  now: Date,
): Promise<boolean> {
  const count = ATTACHMENTS_ADDED.exec(event.message)?.[1];
  if (count === undefined) return false;
  const uploads = {
    accountId,
    kind: 'evidence_upload' as const,
    target: { in: [...incidentIds] },
  };
  const already = await db.prisma.echoLedgerEntry.findFirst({
    where: { ...uploads, echoRef: event.ref },
    select: { id: true },
  });
  if (already) return true; // this event, applied again
  for (;;) {
    const candidate = await db.prisma.echoLedgerEntry.findFirst({
      where: {
        ...uploads,
        files: Number(count),
        echoedAt: null,
        sentAt: { gte: new Date(now.getTime() - ECHO_RETENTION_MS) },
      },
      orderBy: { sentAt: 'asc' },
      select: { id: true },
    });
    if (!candidate) return false;
    // claimed with a conditional update: two deliveries of two echoes absorb two uploads
    const claimed = await db.prisma.echoLedgerEntry.updateMany({
      where: { id: candidate.id, echoedAt: null },
      data: { echoedAt: now, echoRef: event.ref },
    });
    if (claimed.count === 1) return true;
  }
}
