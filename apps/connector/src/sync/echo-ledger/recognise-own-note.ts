// A ticket comment whose text is a note the connector wrote on that ticket recently (recordOwnNote)
// is its own: the comment trigger the note fired, never forwarded back to the incident.
import type { TDatabase } from '@incident-desk/db';
import { normalizeText } from '../../notes';
import { ECHO_RETENTION_MS } from './echo-windows';

export async function isRecordedOwnNote(
  db: TDatabase,
  accountId: string,
  ticketId: number,
  text: string,
  now: Date,
): Promise<boolean> {
  const match = await db.prisma.echoLedgerEntry.findFirst({
    where: {
      accountId,
      kind: 'ticket_note',
      target: String(ticketId),
      text: normalizeText(text),
      sentAt: { gte: new Date(now.getTime() - ECHO_RETENTION_MS) },
    },
    select: { id: true },
  });
  return match !== null;
}
