// What an incident.history_created asks of its ticket: the entry's message as a line of the note,
// unless it is the connector's own doing coming back (the echo ledger decides).
//
// The service may date several entries alike (two partners' listings in one millisecond). An event
// without its message cannot say which of them it announced, so it takes the oldest that no other
// event of that moment has noted on the ticket; an event with its message whose entry such a read
// already took notes the one the read left. Each entry of the moment is noted once, in any order
// of delivery; an analyst's message said twice, each with its event, is noted twice.
import type { AccountContext } from '../../accounts';
import type { ChangeEntry } from '../../notes';
import { absorbEvidenceEcho, recogniseIncidentEcho, REPORT_OWN_ENTRY } from '../echo-ledger';
import type { ResolvedSyncDeps } from '../sync-deps';
import { historyMessagesFromIncident } from './history-message';
import type { IncidentHistoryCreatedEvent } from './incident-event';
import type { LinkedTicket } from './incident-link-store';
import { takeReportEcho } from './report-echo-window';

/** Events this close to one another may announce entries of one moment (clocks, delivery). */
const SAME_MOMENT_MS = 2_000;

/** The change, or why the entry is not shown (a string). */
export async function historyChange(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  event: IncidentHistoryCreatedEvent,
  link: LinkedTicket,
): Promise<{ entry: ChangeEntry } | string> {
  if (event.historyMessage !== undefined) {
    const echo = { ref: event.ref, message: event.historyMessage };
    if (
      await absorbEvidenceEcho(deps.db, ctx.accountId, incidentIds(event, link), echo, deps.now())
    )
      return 'history entry echoes evidence the connector uploaded';
    const skip = await ownWords(deps, ctx, event, link, event.historyMessage);
    // the report's entry come back with its message: a later one without is not taken for it
    if (skip === REPORT_OWN_ENTRY) await takeReportEcho(deps.db, ctx.accountId, link, event);
    if (skip) return skip;
    const noted = await notedAround(deps, ctx, event, link);
    const said = event.historyMessage.trim();
    if (!noted.some((n) => n.fromHistory && n.message === said))
      return { entry: { kind: 'history', message: event.historyMessage } };
    // an event without its message took this entry for its own: this one notes what it left
    const left = await historyMessagesFromIncident(ctx, event, link);
    const message = left && firstUnnoted(left.messages, noted);
    if (message === undefined) return 'history entry of this moment already noted';
    return (
      (await ownWords(deps, ctx, event, link, message)) ?? {
        entry: { kind: 'history', message, fromHistory: true },
      }
    );
  }
  // The event omits the message: it is read from the incident, and an entry the connector itself
  // caused (its report's included) is its own echo, no news. Nothing else is guessed from timing:
  // an analyst's entry arriving without its message, before the report's echo, is still news.
  const fetched = await historyMessagesFromIncident(ctx, event, link);
  let message = fetched?.messages[0];
  if (fetched && fetched.messages.length > 1) {
    message = firstUnnoted(fetched.messages, await notedAround(deps, ctx, event, link));
    if (message === undefined) return 'history entry of this moment already noted';
  }
  const own = message === undefined ? null : await ownWords(deps, ctx, event, link, message);
  // the entry of the event's own moment, the connector's: its echo, no news; an own entry only
  // nearest in time may not be the one announced, so the event keeps its line, without words
  if (own && fetched?.exact) return own;
  if (own || message === undefined) return { entry: { kind: 'history', message: null } };
  return { entry: { kind: 'history', message, fromHistory: true } };
}

function incidentIds(event: IncidentHistoryCreatedEvent, link: LinkedTicket): string[] {
  return [
    ...new Set([event.incidentId, link.incidentId, ...(link.reportRef ? [link.reportRef] : [])]),
  ];
}

/**
 * Why a history message is the connector's own doing (its report, a comment it posted, a call it
 * made), or null: the echo ledger decides, and defers the job while an own call is under way.
 */
function ownWords(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  event: IncidentHistoryCreatedEvent,
  link: LinkedTicket,
  message: string,
): Promise<string | null> {
  return recogniseIncidentEcho(deps, ctx, {
    incidentIds: incidentIds(event, link),
    ref: event.ref,
    occurredAt: event.occurredAt,
    message,
    // the event's author speaks for the event's own message only
    authorType: message === event.historyMessage ? event.historyAuthor : undefined,
    clientId: event.clientId,
    readId: link.reportRef ?? event.incidentId,
  });
}

interface NotedMessage {
  message: string;
  fromHistory: boolean;
}

/**
 * The history messages other events of about this moment recorded for the ticket, trimmed as the
 * ones read from the history are.
 */
async function notedAround(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  event: IncidentHistoryCreatedEvent,
  link: LinkedTicket,
): Promise<NotedMessage[]> {
  const at = event.occurredAt.getTime();
  const rows = await deps.db.prisma.pendingTicketChange.findMany({
    where: {
      accountId: ctx.accountId,
      ticketId: BigInt(link.ticketId),
      eventName: event.name,
      eventRef: { not: event.ref },
      eventAt: { gte: new Date(at - SAME_MOMENT_MS), lte: new Date(at + SAME_MOMENT_MS) },
    },
    select: { entry: true },
  });
  return rows.flatMap(({ entry }) => {
    const noted = entry as ChangeEntry | null;
    return noted?.kind === 'history' && noted.message
      ? [{ message: noted.message.trim(), fromHistory: noted.fromHistory === true }]
      : [];
  });
}

/** The first of `messages` not among `noted`, each noted message standing for one entry. */
function firstUnnoted(
  messages: readonly string[],
  noted: readonly NotedMessage[],
): string | undefined {
  const left = noted.map((n) => n.message);
  for (const message of messages) {
    const at = left.indexOf(message);
    if (at === -1) return message;
    left.splice(at, 1);
  }
  return undefined;
}
