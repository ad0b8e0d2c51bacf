// A report's own history entry comes back as incident.history_created (contract, Events rule 3),
// and, like any event, may come without its optional fields (rule 4): then nothing in it tells the
// report's confirmation from an analyst's words, and the entry nearest the event's time is not
// reliably it (events are emitted "typically within a couple of minutes" of the change, so a later
// entry can be nearer). So the first history event without its message, for the incident this
// ticket reported, dated within this window of the report, is taken for the report's echo: no news.
// One per report (report_attempt.echo_event_ref): a later one is read as news. A history event
// recognised by its message as the report's own takes the place first.
import type { TDatabase } from '@incident-desk/db';
import type { LinkedTicket } from './incident-link-store';

/** How long after the report its echo may be dated. */
const REPORT_ECHO_WINDOW_MS = 5 * 60_000;
/** How much earlier than the report it may be dated (the two services' clocks differ). */
const REPORT_ECHO_CLOCK_SKEW_MS = 60_000;

/**
 * Whether this event is the report's echo: it falls within the window of this ticket's report and
 * the report's echo is this event or not yet taken (then this event takes it).
 */
export async function takeReportEcho(
  db: TDatabase,
  accountId: string,
  link: LinkedTicket,
  event: { incidentId: string; occurredAt: Date; ref: string },
): Promise<boolean> {
  const ids = [
    ...new Set([event.incidentId, link.incidentId, ...(link.reportRef ? [link.reportRef] : [])]),
  ];
  const report = await db.prisma.reportAttempt.findFirst({
    where: { accountId, ticketId: BigInt(link.ticketId), incidentId: { in: ids } },
    orderBy: { startedAt: 'desc' },
    select: { id: true, startedAt: true },
  });
  if (!report) return false;
  const gap = event.occurredAt.getTime() - report.startedAt.getTime();
  if (gap < -REPORT_ECHO_CLOCK_SKEW_MS || gap > REPORT_ECHO_WINDOW_MS) return false;
  const taken = await db.prisma.reportAttempt.updateMany({
    where: { id: report.id, OR: [{ echoEventRef: null }, { echoEventRef: event.ref }] },
    data: { echoEventRef: event.ref },
  });
  return taken.count === 1;
}
