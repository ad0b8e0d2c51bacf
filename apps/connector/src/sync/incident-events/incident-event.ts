// The incident events the worker applies: one type per event name, read by parse-incident-event.ts
// from the client package's webhook schemas. Adding an event is its schema (packages/incident-api),
// its reading (parse-incident-event.ts), its handler (apply-linked-event.ts) and the note text of
// the change it records (notes/incident-change-note.ts); the compiler names each place left out.

interface Delivered {
  /** Stable per event: jobs/incident-event-ref.ts, the receiver's dedupe key too. */
  ref: string;
  /** The event time; the receive time when the envelope carries no usable timestamp. */
  occurredAt: Date;
  /** When the connector received it (the job's receivedAt), when known. */
  receivedAt?: Date;
  clientId: string | undefined;
}

interface OfIncident extends Delivered {
  incidentId: string;
}

interface WebhookTestEvent extends Delivered {
  name: 'webhook.test';
}

interface IncidentCreatedEvent extends OfIncident {
  name: 'incident.created';
}

export interface IncidentStatusChangedEvent extends OfIncident {
  name: 'incident.status_changed';
  /** data.status when it is a non-empty string (an unknown status too). */
  status: string | undefined;
}

export interface IncidentHistoryCreatedEvent extends OfIncident {
  name: 'incident.history_created';
  /** data.historyEntry.message when it is a non-empty string. */
  historyMessage: string | undefined;
  /**
   * The entry's author classification (data.historyEntry.author.type) when the event names one:
   * `client` for the client's own doing (the connector acts as the client), or another (analyst,
   * partner, system...). Not specified by the contract: read when present.
   */
  historyAuthor: string | undefined;
}

export interface IncidentTakedownUpdatedEvent extends OfIncident {
  name: 'incident.takedown_updated';
}

export interface IncidentActionRequiredEvent extends OfIncident {
  name: 'incident.action_required';
  /** data.waitForClient when it is a non-empty string. */
  waitForClient: string | undefined;
}

/** An event about one incident: what a ticket may be told. */
export type IncidentEvent =
  | IncidentCreatedEvent
  | IncidentStatusChangedEvent
  | IncidentHistoryCreatedEvent
  | IncidentTakedownUpdatedEvent
  | IncidentActionRequiredEvent;

export type IncidentEventName = IncidentEvent['name'];

/** Each incident event's type by its name: the shape of a table of one handler per name. */
export type IncidentEventByName = { [E in IncidentEvent as E['name']]: E };

/** Every event the worker reads; an event name it does not know is skipped before this. */
export type ParsedIncidentEvent = WebhookTestEvent | IncidentEvent;
