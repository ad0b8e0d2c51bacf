// Dead letters only for the permanent failures that were injected. Each sync
// failure the connector recorded is matched to the injected failure that explains it; a letter
// nothing explains, an injected failure without its letter, or two letters for one job or event
// fails the soak.

export interface InjectedPermanentFailures {
  /** Tickets reported from Zendesk with a Threat that is no threat. */
  invalidReports: { accountId: string; ticketId: number }[];
  /** Linked tickets closed in Zendesk while their incidents still moved. */
  closedTickets: { accountId: string; ticketId: number; incidentId: string; closedAt: number }[];
  /**
   * When the connector was SIGKILLed: an action request it was sending then has an unknown
   * outcome, which the connector tells the agent and dead-letters rather than sending it again.
   */
  sigkills: number[];
}

/** An action request row still `sending`: its job's process died while sending it. */
export interface ActionRequestLeftSending {
  accountId: string;
  receiptId: string;
  createdAt: Date;
}

export interface DeadLetter {
  accountId: string;
  queue: string;
  jobId: string | null;
  ticketId: bigint | null;
  incidentId: string | null;
  reason: string;
  payload: unknown;
  createdAt: Date;
}

export interface DeadLetterCheck {
  total: number;
  /** Letters by the injected failure that explains them. */
  explained: { invalidReport: number; closedTicket: number; killedWhileSending: number };
  /** Letters nothing injected explains, described. */
  unexpected: string[];
  /** Injected failures that left no letter, described. */
  missing: string[];
  /** Letters beyond the first for one job or one incident event. */
  doubled: number;
  /** Incident event ids dead-lettered because their ticket was closed, by incident id. */
  closedTicketEvents: Map<string, string[]>;
}

const CLOSED_TICKET = 'closed prevents ticket update';
const INVALID_THREAT = 'invalid threat:';
const STOPPED_WHILE_SENDING = 'outcome unknown: stopped while sending';

/** The incident events a letter stands for: its job's event, or the events of a ticket write. */
function eventIdsOf(payload: unknown): string[] {
  const value = payload as { event?: { id?: unknown }; events?: unknown } | null;
  if (typeof value?.event?.id === 'string') return [value.event.id];
  if (Array.isArray(value?.events))
    return value.events.filter((id): id is string => typeof id === 'string');
  return [];
}

function eventIdOf(payload: unknown): string | undefined {
  return eventIdsOf(payload)[0];
}

function describeDeadLetter(letter: DeadLetter): string {
  return `${letter.queue} ticket ${letter.ticketId ?? '-'} incident ${letter.incidentId ?? '-'} event ${eventIdOf(letter.payload) ?? '-'} at ${letter.createdAt.toISOString()}: ${letter.reason}`;
}

export function matchDeadLetters(
  letters: DeadLetter[],
  injected: InjectedPermanentFailures,
  leftSending: ActionRequestLeftSending[],
  /**
   * Closed tickets whose incident link moved to a follow-up: the writer opens one for
   * a note it cannot write on a closed ticket, so their events need no letter. Keyed by incident id.
   */
  followUps: ReadonlyMap<string, number> = new Map(),
): DeadLetterCheck {
  const check: DeadLetterCheck = {
    total: letters.length,
    explained: { invalidReport: 0, closedTicket: 0, killedWhileSending: 0 },
    unexpected: [],
    missing: [],
    doubled: 0,
    closedTicketEvents: new Map(),
  };
  const seenJobs = new Set<string>();
  const seenEvents = new Set<string>();
  const lettersPerInvalidReport = new Map<string, number>();
  const keyOf = (accountId: string, ticketId: number | bigint) => `${accountId}#${ticketId}`;

  for (const letter of letters) {
    const eventIds = eventIdsOf(letter.payload);
    const eventId = eventIds[0];
    if (
      (letter.jobId && seenJobs.has(letter.jobId)) ||
      eventIds.some((id) => seenEvents.has(`${letter.accountId}:${id}`))
    ) {
      check.doubled += 1;
      check.unexpected.push(`a second letter: ${describeDeadLetter(letter)}`);
      continue;
    }
    if (letter.jobId) seenJobs.add(letter.jobId);
    for (const id of eventIds) seenEvents.add(`${letter.accountId}:${id}`);

    const invalid =
      letter.queue === 'ticket-event' &&
      letter.ticketId !== null &&
      letter.reason.startsWith(INVALID_THREAT) &&
      injected.invalidReports.some(
        (r) => r.accountId === letter.accountId && BigInt(r.ticketId) === letter.ticketId,
      );
    if (invalid) {
      const key = keyOf(letter.accountId, letter.ticketId!);
      const n = (lettersPerInvalidReport.get(key) ?? 0) + 1;
      lettersPerInvalidReport.set(key, n);
      if (n > 1) {
        check.doubled += 1;
        check.unexpected.push(`a second letter for one report: ${describeDeadLetter(letter)}`);
      } else check.explained.invalidReport += 1;
      continue;
    }

    const closed = injected.closedTickets.find(
      (t) =>
        t.accountId === letter.accountId &&
        t.incidentId === letter.incidentId &&
        letter.createdAt.getTime() >= t.closedAt,
    );
    if (
      closed &&
      // the account's writer dead-letters a closed ticket's waiting changes (queue ticket-write)
      (letter.queue === 'incident-event' || letter.queue === 'ticket-write') &&
      eventId &&
      letter.reason.includes(CLOSED_TICKET)
    ) {
      check.explained.closedTicket += 1;
      const events = check.closedTicketEvents.get(closed.incidentId) ?? [];
      events.push(...eventIds);
      check.closedTicketEvents.set(closed.incidentId, events);
      continue;
    }
    // Sending began before a SIGKILL and the letter came after it: that kill cut the send short.
    const request = leftSending.find(
      (r) => r.accountId === letter.accountId && r.receiptId === letter.jobId,
    );
    const killedWhileSending =
      letter.queue === 'ticket-event' &&
      letter.reason.includes(STOPPED_WHILE_SENDING) &&
      request !== undefined &&
      injected.sigkills.some(
        (at) => request.createdAt.getTime() <= at && at <= letter.createdAt.getTime(),
      );
    if (killedWhileSending) {
      check.explained.killedWhileSending += 1;
      continue;
    }
    check.unexpected.push(describeDeadLetter(letter));
  }

  for (const report of injected.invalidReports) {
    if (!lettersPerInvalidReport.has(keyOf(report.accountId, report.ticketId)))
      check.missing.push(`no dead letter for the invalid report on ticket ${report.ticketId}`);
  }
  for (const ticket of injected.closedTickets) {
    const followUp = followUps.get(ticket.incidentId);
    if (followUp !== undefined && followUp !== ticket.ticketId) continue;
    if (!check.closedTicketEvents.has(ticket.incidentId))
      check.missing.push(
        `no dead letter nor follow-up for the events of incident ${ticket.incidentId} after ticket ${ticket.ticketId} was closed`,
      );
  }
  return check;
}
