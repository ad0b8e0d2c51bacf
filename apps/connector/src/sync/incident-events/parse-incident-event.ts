// Tolerant reading of a queued incident event: the envelope id, name and data.incidentId are all
// that is required; every other field is read when it has the expected type and ignored otherwise,
// so a missing or odd display field never rejects a valid event.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { isKnownWebhookEventName, type TKnownWebhookEventName } from '@incident-desk/incident-api';

const optionalString = z.string().optional().catch(undefined);

export const ZIncidentEventEnvelope = z.looseObject({
  id: optionalString,
  event: z.string().min(1),
  timestamp: optionalString,
  clientId: optionalString,
  data: z
    .looseObject({
      incidentId: optionalString,
      status: optionalString,
      historyEntry: z.looseObject({ message: optionalString }).optional().catch(undefined),
      waitForClient: z.unknown().optional(),
    })
    .optional()
    .catch(undefined),
});
export type TIncidentEventEnvelope = z.infer<typeof ZIncidentEventEnvelope>;

export interface ParsedIncidentEvent {
  name: TKnownWebhookEventName;
  /** Stable per event: the envelope id, else a hash of the envelope (as the receiver dedupes). */
  ref: string;
  /** The event time; the receive time when the envelope carries no usable timestamp. */
  occurredAt: Date;
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

export function parseIncidentEvent(raw: unknown, receivedAt: string): IncidentEventParse {
  const parsed = ZIncidentEventEnvelope.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: 'malformed', detail: parsed.error.message };
  const envelope = parsed.data;
  if (!isKnownWebhookEventName(envelope.event)) {
    return { ok: false, reason: 'unknown_event', name: envelope.event };
  }
  const incidentId = nonEmpty(envelope.data?.incidentId);
  if (envelope.event !== 'webhook.test' && incidentId === undefined) {
    return { ok: false, reason: 'malformed', detail: `${envelope.event} without data.incidentId` };
  }
  const waitForClient = envelope.data?.waitForClient;
  return {
    ok: true,
    event: {
      name: envelope.event,
      ref:
        nonEmpty(envelope.id) ??
        `sha256:${createHash('sha256').update(JSON.stringify(raw)).digest('hex').slice(0, 32)}`,
      occurredAt: timeOf(envelope.timestamp, receivedAt),
      clientId: nonEmpty(envelope.clientId),
      incidentId,
      status: nonEmpty(envelope.data?.status),
      historyMessage: nonEmpty(envelope.data?.historyEntry?.message),
      waitForClient: typeof waitForClient === 'string' ? nonEmpty(waitForClient) : undefined,
    },
  };
}
