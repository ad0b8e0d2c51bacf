// Incident events for the linked tickets of many accounts, signed and sent to each account's
// subscription as the incident service sends them (process-sandboxes' deliverIncidentEvent, again
// when not acknowledged in time: redelivery.ts), with when each was sent and acknowledged. Each
// ticket alternates a status change (its statuses in turn) and a history entry; timestamps only
// move forward, so every event is the ticket's newest.
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

export interface EventSender {
  /** Sends the next event for one of the tenant's tickets. */
  send(tenant: EventTenant, link: LinkedTicket, phase: string): Promise<SentEvent>;
  /** Every event sent so far, in the order sent. */
  readonly sent: readonly SentEvent[];
}

export function createEventSender(
  deliver: ProcessSandboxes['deliverIncidentEvent'],
  runId: string,
): EventSender {
  const sent: SentEvent[] = [];
  const steps = new Map<string, number>(); // subdomain/ticket -> events sent for it
  let clock = Date.now();
  return {
    sent,
    async send(tenant, link, phase) {
      const key = `${tenant.subdomain}/${link.ticketId}`;
      const step = steps.get(key) ?? 0;
      steps.set(key, step + 1);
      clock = Math.max(clock + 1, Date.now());
      const event: SentEvent = {
        id: `evt_ten_${runId}_${sent.length}`,
        phase,
        subdomain: tenant.subdomain,
        sentAt: performance.now(),
      };
      sent.push(event);
      const status = STATUS_CYCLE[Math.floor(step / 2) % STATUS_CYCLE.length]!;
      const envelope = {
        id: event.id,
        timestamp: new Date(clock).toISOString(),
        ...(step % 2 === 0
          ? {
              event: 'incident.status_changed',
              data: { incidentId: link.incidentId, status },
            }
          : {
              event: 'incident.history_created',
              data: {
                incidentId: link.incidentId,
                historyEntry: { message: `Analyst update ${step} on the case.` },
              },
            }),
      };
      event.missed = [];
      const delivery = await deliverAsTheService(
        (timeoutMs) => deliver(envelope, tenant.incidentClientId, timeoutMs),
        { missed: event.missed },
      );
      Object.assign(event, delivery);
      return event;
    },
  };
}

export const acknowledged = (events: readonly SentEvent[]): SentEvent[] =>
  events.filter((event) => event.status === 200);
