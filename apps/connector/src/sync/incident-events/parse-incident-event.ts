// Tolerant reading of a queued incident event with the client package's envelope schema (the one
// the sandbox and the receiver use too): the event name and, for incident events, data.incidentId
// are all that is required; every other field is read when it has the expected type and ignored
// otherwise, so a missing or odd display field never rejects a valid event.
import { z } from 'zod';
import { parseWebhookEvent, type TKnownWebhookEventName } from '@incident-desk/incident-api';
import { incidentEventRef } from '../../jobs/incident-event-ref';

export interface ParsedIncidentEvent {
  name: TKnownWebhookEventName;
  /** Stable per event: jobs/incident-event-ref.ts, the receiver's dedupe key too. */
  ref: string;
  /** The event time; the receive time when the envelope carries no usable timestamp. */
  occurredAt: Date;
  /** When the connector received it (the job's receivedAt), when known. */
  receivedAt?: Date;
  clientId: string | undefined;
  incidentId: string | undefined;
  status: string | undefined;
  historyMessage: string | undefined;
  /** data.waitForClient only when it is a non-empty string. */
  waitForClient: string | undefined;
}

export type IncidentEventParse =
  | { ok: true; event: ParsedIncidentEvent }
  | { ok: false; reason: 'malformed'; detail: string }
  | { ok: false; reason: 'unknown_event'; name: string };

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

function timeOf(value: string | undefined, fallback: string): Date {
  for (const candidate of [value, fallback]) {
    if (candidate === undefined) continue;
    const time = new Date(candidate);
    if (!Number.isNaN(time.getTime())) return time;
  }
  return new Date(0);
}

export function parseIncidentEvent(
  raw: Readonly<Record<string, unknown>>,
  receivedAt: string,
): IncidentEventParse {
  const parsed = parseWebhookEvent(raw);
  if (!parsed.ok) {
    const name = raw.event;
    const detail =
      typeof name === 'string' && name !== 'webhook.test'
        ? `${name} without data.incidentId`
        : z.prettifyError(parsed.error);
    return { ok: false, reason: 'malformed', detail };
  }
  if (!parsed.known) return { ok: false, reason: 'unknown_event', name: parsed.event.event };
  const envelope = parsed.event;
  // the typed payload of the event; fields of other events' payloads pass through loose, so each is
  // still read only when it is a string
  const data = (envelope.data ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? nonEmpty(value) : undefined);
  const historyEntry = data.historyEntry as { message?: unknown } | undefined;
  const incidentId = text(data.incidentId);
  if (envelope.event !== 'webhook.test' && incidentId === undefined) {
    return { ok: false, reason: 'malformed', detail: `${envelope.event} without data.incidentId` };
  }
  return {
    ok: true,
    event: {
      name: envelope.event,
      ref: incidentEventRef(raw),
      occurredAt: timeOf(envelope.timestamp, receivedAt),
      ...(Number.isNaN(Date.parse(receivedAt)) ? {} : { receivedAt: new Date(receivedAt) }),
      clientId: nonEmpty(envelope.clientId),
      incidentId,
      status: text(data.status),
      historyMessage: text(historyEntry?.message),
      waitForClient: text(data.waitForClient),
    },
  };
}
