// Tolerant reading of a queued incident event with the client package's envelope schema (the one
// the sandbox and the receiver use too): the event name and, for incident events, data.incidentId
// are all that is required; every other field is read when it has the expected type and ignored
// otherwise, so a missing or odd display field never rejects a valid event. Each event name reads
// into its own type (incident-event.ts).
import { z } from 'zod';
import { parseWebhookEvent } from '@incident-desk/incident-api';
import { incidentEventRef } from '../../jobs';
import type { IncidentEvent, ParsedIncidentEvent } from './incident-event';

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

/** The history entry's `author.type`, when it is a non-empty string. */
function authorTypeOf(entry: unknown): string | undefined {
  const author = (entry as { author?: unknown } | undefined)?.author;
  const type = (author as { type?: unknown } | null | undefined)?.type;
  return typeof type === 'string' ? nonEmpty(type) : undefined;
}

function unreadable(envelope: never): never {
  throw new Error(`no reading for event ${(envelope as { event: string }).event}`);
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
  const delivered = {
    ref: incidentEventRef(raw),
    occurredAt: timeOf(envelope.timestamp, receivedAt),
    ...(Number.isNaN(Date.parse(receivedAt)) ? {} : { receivedAt: new Date(receivedAt) }),
    clientId: nonEmpty(envelope.clientId),
  };
  if (envelope.event === 'webhook.test') {
    return { ok: true, event: { name: envelope.event, ...delivered } };
  }
  const incidentId = nonEmpty(envelope.data.incidentId);
  if (incidentId === undefined) {
    return { ok: false, reason: 'malformed', detail: `${envelope.event} without data.incidentId` };
  }
  const ofIncident = { ...delivered, incidentId };
  const read = (event: IncidentEvent): IncidentEventParse => ({ ok: true, event });
  switch (envelope.event) {
    case 'incident.created':
    case 'incident.takedown_updated':
      return read({ name: envelope.event, ...ofIncident });
    case 'incident.status_changed':
      return read({ name: envelope.event, ...ofIncident, status: nonEmpty(envelope.data.status) });
    case 'incident.history_created':
      return read({
        name: envelope.event,
        ...ofIncident,
        historyMessage: nonEmpty(envelope.data.historyEntry?.message),
        historyAuthor: authorTypeOf(envelope.data.historyEntry),
      });
    case 'incident.action_required':
      return read({
        name: envelope.event,
        ...ofIncident,
        waitForClient: nonEmpty(envelope.data.waitForClient),
      });
    default:
      return unreadable(envelope);
  }
}
