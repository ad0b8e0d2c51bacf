// What setup hands back: everything the accounts side must persist, and one report line per
// thing setup looked after, so an admin page can show setup state and offer a rerun.

type TSetupStep =
  | 'ticket_field'
  | 'zendesk_webhook'
  | 'trigger'
  | 'view'
  | 'incident_subscription'
  | 'incident_test_delivery';

/** `requested` is only used by the test delivery: the service accepted the request to send webhook.test. */
type TStepOutcome =
  'created' | 'found' | 'updated' | 'removed' | 'requested' | 'failed' | 'skipped';

export interface StepReport {
  step: TSetupStep;
  /** What the line is about: a field title, a trigger title, a client id... */
  target: string;
  outcome: TStepOutcome;
  message?: string;
}

export interface SetupFieldIds {
  threat: number | null;
  incidentId: number | null;
  status: number | null;
}

export interface ZendeskWebhookSetup {
  id: string;
  /** Store encrypted; the ticketing receiver verifies deliveries with it. */
  secret: string;
}

export interface StoredIncidentSubscription {
  /** Incident service client or sub-client the subscription delivers events of. */
  clientId: string;
  /** Opaque id in the receiver URL (`?subscription=`); the connector's key for the secrets. */
  subscriptionId: string;
  /** The incident service's id of the subscription. */
  webhookId: string;
  /** Null when it was lost; setup then rotates it. */
  secret: string | null;
}

interface IncidentSubscriptionSetup extends StoredIncidentSubscription {
  secret: string;
  /** Whether the incident service accepted the request to send webhook.test to it. */
  testDelivery: 'requested' | 'failed';
}

/** What setup already knows from earlier runs (all optional: the first run knows nothing). */
export interface SetupExisting {
  fields?: Partial<SetupFieldIds> | undefined;
  zendeskWebhookId?: string | undefined;
  /** The triggers an earlier run made or found (setup's own, whatever their title). */
  triggerIds?: number[] | undefined;
  /** The queue views an earlier run made (removed when the option is turned off). */
  viewIds?: number[] | undefined;
  incidentSubscriptions?: StoredIncidentSubscription[] | undefined;
}

export interface SetupResult {
  /** True when no step failed. */
  ok: boolean;
  /** Field ids for the account's configuration; a failed lookup keeps the stored id. */
  fields: SetupFieldIds;
  /** Null when the Zendesk webhook step failed: keep the stored webhook id and secret then. */
  zendeskWebhook: ZendeskWebhookSetup | null;
  triggers: { title: string; id: number }[];
  /** The triggers to store, or null to keep the stored ones (the step could not say). */
  triggerIds: number[] | null;
  /** The queue views to store, or null to keep the stored ones (the step could not say). */
  views: number[] | null;
  /**
   * The whole set to store (replacing the stored one): a client whose step failed keeps its stored
   * subscription; a client no longer configured is gone (its subscription was deleted).
   */
  incidentSubscriptions: IncidentSubscriptionSetup[];
  /**
   * The account's default language as Zendesk gives it (`en-US`, `fr`...): notes are written in
   * it. Null when Zendesk marks none; undefined when it could not be read (the stored one stays).
   */
  zendeskLocale?: string | null | undefined;
  steps: StepReport[];
  finishedAt: string;
}
