// Incident events for the linked tickets of many accounts, signed and sent to each account's
// subscription as the incident service sends them (process-sandboxes' deliverIncidentEvent, again
// when not acknowledged in time: redelivery.ts), with when each was sent and acknowledged. Each
// ticket alternates a status change (its statuses in turn) and a history entry, or gets the events
// the caller makes (sendEvent); timestamps only move forward, so every event is the ticket's newest.
import type { ProcessSandboxes } from '../test/support/process-sandboxes';
import type { LinkedTicket } from './linked-tickets';
import { deliverAsTheService } from './redelivery';

export interface EventTenant {
  subdomain: string;
  incidentClientId: string;
  links: LinkedTicket[];
}

export interface SentEvent {
  id: string;
  phase: string;
  subdomain: string;
  /** The event's name (incident.status_changed...). */
  event: string;
  ticketId: number;
  /** performance.now() when it was first sent, and when its last delivery's answer came. */
  sentAt: number;
  answeredAt?: number;
  /** HTTP status of the last delivery; 0 when none came (refused, or not within the window). */
  status?: number;
  /** Why each delivery not acknowledged was not (each was sent again, but for the last). */
  missed?: string[];
}

const STATUS_CYCLE = [
  'case_building',
  'approval_required',
  'takedown_ready',
  'takedown_in_progress',
  'takedown_attempt_failed',
  'takedown_in_progress',
];

/** An event for a linked ticket's incident: its name and data (the incident's id is added). */
export interface TicketEvent {
  event: string;
  data: Record<string, unknown>;
}

export interface EventSender {
  /** Sends the next event for one of the tenant's tickets. */
  send(tenant: EventTenant, link: LinkedTicket, phase: string): Promise<SentEvent>;
  /** Sends `event` for the ticket's incident, as the service would. */
  sendEvent(
    tenant: EventTenant,
    link: LinkedTicket,
    phase: string,
    event: TicketEvent,
  ): Promise<SentEvent>;
  /** Every event sent so far, in the order sent. */
  readonly sent: readonly SentEvent[];
}

/** The status a ticket's `index`-th status change sets (statuses in turn). */
export const statusOf = (index: number): string => STATUS_CYCLE[index % STATUS_CYCLE.length]!;

export function createEventSender(
  deliver: ProcessSandboxes['deliverIncidentEvent'],
  runId: string,
  idPrefix = 'evt_ten',
): EventSender {
  const sent: SentEvent[] = [];
  const steps = new Map<string, number>(); // subdomain/ticket -> events sent for it
  let clock = Date.now();
  const sendEvent: EventSender['sendEvent'] = async (tenant, link, phase, made) => {
    clock = Math.max(clock + 1, Date.now());
    const event: SentEvent = {
      id: `${idPrefix}_${runId}_${sent.length}`,
      phase,
      subdomain: tenant.subdomain,
      event: made.event,
      ticketId: link.ticketId,
      sentAt: performance.now(),
    };
    sent.push(event);
    const envelope = {
      id: event.id,
      timestamp: new Date(clock).toISOString(),
      event: made.event,
      data: { incidentId: link.incidentId, ...made.data },
    };
    event.missed = [];
    const delivery = await deliverAsTheService(
      (timeoutMs) => deliver(envelope, tenant.incidentClientId, timeoutMs),
      { missed: event.missed },
    );
    Object.assign(event, delivery);
    return event;
  };
  return {
    sent,
    sendEvent,
    send(tenant, link, phase) {
      const key = `${tenant.subdomain}/${link.ticketId}`;
      const step = steps.get(key) ?? 0;
      steps.set(key, step + 1);
      return sendEvent(
        tenant,
        link,
        phase,
        step % 2 === 0
          ? { event: 'incident.status_changed', data: { status: statusOf(Math.floor(step / 2)) } }
          : {
              event: 'incident.history_created',
              data: { historyEntry: { message: `Analyst update ${step} on the case.` } },
            },
      );
    },
  };
}

export const acknowledged = (events: readonly SentEvent[]): SentEvent[] =>
  events.filter((event) => event.status === 200);
