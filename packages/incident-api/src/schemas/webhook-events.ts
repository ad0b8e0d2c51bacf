import { z } from 'zod';
import { isKnownValue, openEnum } from './open-enum';
import { ZTimestamp } from './common';
import { ZIncidentStatus } from './status';

/** The events a subscription can name; `webhook.test` is sent by the test call regardless. */
export const INCIDENT_EVENTS = [
  'incident.created',
  'incident.status_changed',
  'incident.history_created',
  'incident.takedown_updated',
  'incident.action_required',
] as const;
export const WEBHOOK_EVENTS = ['webhook.test', ...INCIDENT_EVENTS] as const;
export type TKnownWebhookEventName = (typeof WEBHOOK_EVENTS)[number];
export const ZWebhookEventName = openEnum(WEBHOOK_EVENTS);
export type TWebhookEventName = z.infer<typeof ZWebhookEventName>;
export const isKnownWebhookEventName = (name: string): name is TKnownWebhookEventName =>
  isKnownValue(WEBHOOK_EVENTS, name);

// Payload fields are omitted when they do not apply or are not yet populated: every field but the
// incident id is optional, and receivers fall back to fetching the incident. Read tolerantly: a
// display field of an unexpected type is dropped, never a reason to reject the event.

/** An optional field that reads as absent when it has an unexpected type. */
const tolerant = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

/** webhook.test: no incident. */
export const ZWebhookTestData = z.looseObject({});
export type TWebhookTestData = z.infer<typeof ZWebhookTestData>;

export const ZIncidentCreatedData = z.looseObject({ incidentId: z.string() });
export type TIncidentCreatedData = z.infer<typeof ZIncidentCreatedData>;

export const ZIncidentStatusChangedData = z.looseObject({
  incidentId: z.string(),
  status: tolerant(ZIncidentStatus),
});
export type TIncidentStatusChangedData = z.infer<typeof ZIncidentStatusChangedData>;

export const ZWebhookHistoryEntry = z.looseObject({ message: tolerant(z.string()) });
export const ZIncidentHistoryCreatedData = z.looseObject({
  incidentId: z.string(),
  historyEntry: tolerant(ZWebhookHistoryEntry),
});
export type TIncidentHistoryCreatedData = z.infer<typeof ZIncidentHistoryCreatedData>;

export const ZIncidentTakedownUpdatedData = z.looseObject({ incidentId: z.string() });
export type TIncidentTakedownUpdatedData = z.infer<typeof ZIncidentTakedownUpdatedData>;

export const ZIncidentActionRequiredData = z.looseObject({
  incidentId: z.string(),
  /** "string when present": any other type reads as absent */
  waitForClient: tolerant(z.string()),
});
export type TIncidentActionRequiredData = z.infer<typeof ZIncidentActionRequiredData>;

export const WEBHOOK_PAYLOAD_SCHEMAS = {
  'webhook.test': ZWebhookTestData,
  'incident.created': ZIncidentCreatedData,
  'incident.status_changed': ZIncidentStatusChangedData,
  'incident.history_created': ZIncidentHistoryCreatedData,
  'incident.takedown_updated': ZIncidentTakedownUpdatedData,
  'incident.action_required': ZIncidentActionRequiredData,
} as const satisfies Record<TKnownWebhookEventName, z.ZodType>;

/**
 * Delivery envelope, the one schema the sandbox, the connector's receiver and its worker read.
 * The spec shows only `data` ("top-level envelope fields other than data: not shown"): `event` is
 * this project's assumption and required, since nothing else names the event; `id`, `timestamp`
 * and `clientId` are optional and read as absent when of another type (receivers fall back to a
 * hash of the body, the receive time and the subscription's client).
 */
export const ZWebhookEnvelope = z.looseObject({
  /** delivery id, stable across redeliveries of the same event, when sent */
  id: tolerant(z.string()),
  event: ZWebhookEventName,
  timestamp: tolerant(ZTimestamp),
  /** client the subscription was created under, when sent */
  clientId: tolerant(z.string()),
  // absent on webhook.test; each incident event requires its payload (below)
  data: z.unknown().optional(),
});
export type TWebhookEnvelope = z.infer<typeof ZWebhookEnvelope>;

const envelopeOf = <E extends TKnownWebhookEventName, D extends z.ZodType>(event: E, data: D) =>
  ZWebhookEnvelope.extend({ event: z.literal(event), data });

export const ZWebhookTestEvent = envelopeOf('webhook.test', tolerant(ZWebhookTestData));
export const ZIncidentCreatedEvent = envelopeOf('incident.created', ZIncidentCreatedData);
export const ZIncidentStatusChangedEvent = envelopeOf(
  'incident.status_changed',
  ZIncidentStatusChangedData,
);
export const ZIncidentHistoryCreatedEvent = envelopeOf(
  'incident.history_created',
  ZIncidentHistoryCreatedData,
);
export const ZIncidentTakedownUpdatedEvent = envelopeOf(
  'incident.takedown_updated',
  ZIncidentTakedownUpdatedData,
);
export const ZIncidentActionRequiredEvent = envelopeOf(
  'incident.action_required',
  ZIncidentActionRequiredData,
);

/** Any known event, discriminated by `event`. */
export const ZWebhookEvent = z.discriminatedUnion('event', [
  ZWebhookTestEvent,
  ZIncidentCreatedEvent,
  ZIncidentStatusChangedEvent,
  ZIncidentHistoryCreatedEvent,
  ZIncidentTakedownUpdatedEvent,
  ZIncidentActionRequiredEvent,
]);
export type TWebhookEvent = z.infer<typeof ZWebhookEvent>;

export type TParsedWebhookEvent =
  | { ok: true; known: true; event: TWebhookEvent }
  /** an event name this library does not know yet: the envelope is valid, data is untyped */
  | { ok: true; known: false; event: TWebhookEnvelope }
  | { ok: false; error: z.ZodError };

/** Parses an already JSON-decoded delivery body; unknown event names are not an error. */
export function parseWebhookEvent(body: unknown): TParsedWebhookEvent {
  const envelope = ZWebhookEnvelope.safeParse(body);
  if (!envelope.success) return { ok: false, error: envelope.error };
  if (!isKnownWebhookEventName(envelope.data.event)) {
    return { ok: true, known: false, event: envelope.data };
  }
  const event = ZWebhookEvent.safeParse(body);
  return event.success
    ? { ok: true, known: true, event: event.data }
    : { ok: false, error: event.error };
}
