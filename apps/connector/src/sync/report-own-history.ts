// The connector's own report shows up again as incident events (contract, Events rule 4): the
// service confirms it with incident.created and with a history entry such as "Incident reported
// for takedown". Those are no news for the ticket that made the report. Events name neither the
// entry's author nor its kind, so the report records what it knows it produced (the service's
// answer to the report and the history the incident had when the report was linked) and an
// incident.history_created whose message is exactly one of those (normalised) is the report's own.
// Exact matching only: a short confirmation must never swallow a longer analyst message.
import type { TDatabase } from '@incident-desk/db';
import { normalizeText } from '../notes/normalize';
import { OWN_NOTE_RETENTION_MS } from './ticket-writer';

export async function recordReportOwnHistory(
  db: TDatabase,
  accountId: string,
  /** The report reference or the incident id: events are matched against both. */
  incidentId: string,
  messages: readonly (string | undefined)[],
): Promise<void> {
  const texts = [...new Set(messages.map((m) => normalizeText(m ?? '')).filter((m) => m !== ''))];
  if (texts.length === 0) return;
  await db.prisma.reportOwnHistory.createMany({
    data: texts.map((message) => ({ accountId, incidentId, message })),
    skipDuplicates: true,
  });
}

/** Whether a history entry of one of these incident ids is what the connector's report produced. */
export async function isReportOwnHistory(
  db: TDatabase,
  accountId: string,
  incidentIds: readonly string[],
  message: string,
  now: Date,
): Promise<boolean> {
  const text = normalizeText(message);
  if (text === '') return false;
  const found = await db.prisma.reportOwnHistory.findFirst({
    where: {
      accountId,
      incidentId: { in: [...incidentIds] },
      message: text,
      createdAt: { gte: new Date(now.getTime() - OWN_NOTE_RETENTION_MS) },
    },
    select: { id: true },
  });
  return found !== null;
}
