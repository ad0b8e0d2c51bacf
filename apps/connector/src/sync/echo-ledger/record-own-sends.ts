// Recording what the connector sends, before it is sent: its echo can come back before the answer.
import type { TDatabase } from '@incident-desk/db';
import { normalizeText } from '../../notes';

type Prisma = TDatabase['prisma'];
/** The client or an interactive transaction's. */
type LedgerWriter = Pick<Prisma, 'echoLedgerEntry'>;

/** A note about to be written on a ticket: the comment trigger it fires is not forwarded back. */
export function recordOwnNote(
  prisma: LedgerWriter,
  accountId: string,
  ticketId: number | bigint,
  body: string,
) {
  return prisma.echoLedgerEntry.create({
    data: {
      accountId,
      kind: 'ticket_note',
      target: String(ticketId),
      text: normalizeText(body),
      settledAt: new Date(),
    },
    select: { id: true },
  });
}

/** The same for a batch of notes, inside the ticket writer's SQL transaction. */
export async function recordOwnNotesSql(
  sql: { executeSql(text: string, values?: unknown[]): Promise<unknown> },
  accountId: string,
  notes: readonly { ticketId: bigint | number; body: string }[],
): Promise<void> {
  if (notes.length === 0) return;
  await sql.executeSql(
    `INSERT INTO echo_ledger (id, account_id, kind, target, text, settled_at)
     SELECT gen_random_uuid(), $1::uuid, 'ticket_note', note.target, note.text, CURRENT_TIMESTAMP
       FROM unnest($2::text[], $3::text[]) AS note(target, text)`,
    [
      accountId,
      notes.map((note) => note.ticketId.toString()),
      notes.map((note) => normalizeText(note.body)),
    ],
  );
}

/**
 * What a report produced in its incident's history (the service's answer, the history the incident
 * had when the report was linked), by the report reference or the incident id: matched exactly.
 */
export async function recordReportHistory(
  db: TDatabase,
  accountId: string,
  target: string,
  messages: readonly (string | undefined)[],
): Promise<void> {
  const texts = [...new Set(messages.map((m) => normalizeText(m ?? '')).filter((m) => m !== ''))];
  if (texts.length === 0) return;
  const known = await db.prisma.echoLedgerEntry.findMany({
    where: { accountId, kind: 'report_history', target, text: { in: texts } },
    select: { text: true },
  });
  const recorded = new Set(known.map((row) => row.text));
  const fresh = texts.filter((text) => !recorded.has(text));
  if (fresh.length === 0) return;
  await db.prisma.echoLedgerEntry.createMany({
    data: fresh.map((text) => ({
      accountId,
      kind: 'report_history' as const,
      target,
      text,
      settledAt: new Date(),
    })),
  });
}

/** An attach request about to be sent: its "n attachments added" entry is absorbed once. */
export function recordEvidenceUpload(
  db: TDatabase,
  accountId: string,
  incidentId: string,
  files: number,
  now: Date,
): Promise<{ id: string }> {
  return db.prisma.echoLedgerEntry.create({
    data: {
      accountId,
      kind: 'evidence_upload',
      target: incidentId,
      files,
      sentAt: now,
      settledAt: now,
    },
    select: { id: true },
  });
}

/** The upload certainly did not reach the incident: no echo will come. */
export async function forgetEvidenceUpload(db: TDatabase, id: string): Promise<void> {
  await db.prisma.echoLedgerEntry.deleteMany({ where: { id, kind: 'evidence_upload' } });
}

/**
 * A comment a report carried to the incident (already answered): its echo, if the service makes
 * one, is matched by its text only. It is no call of unknown wording: the report was the call.
 */
export async function recordReportComment(
  db: TDatabase,
  accountId: string,
  target: string,
  comment: string,
): Promise<void> {
  const now = new Date();
  await db.prisma.echoLedgerEntry.create({
    data: {
      accountId,
      kind: 'report_comment',
      target,
      text: normalizeText(comment),
      sentAt: now,
      settledAt: now,
    },
  });
}
