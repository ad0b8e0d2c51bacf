// One incident-service webhook subscription per client and sub-client, each with its own opaque
// id in the receiver URL. A subscription is found by its stored id, else adopted when it is this
// account's (same receiver, same description) and the secret recovered by rotation; otherwise it
// is created, and the secret the creation returns (only then) is handed back for storage.
import { randomBytes } from 'node:crypto';
import {
  INCIDENT_EVENTS,
  type IncidentClient,
  type TWebhookSubscriptionRecord,
} from '@incident-desk/incident-api';
import { incidentWebhookUrl, subscriptionIdOf } from './connector-urls';
import type { StepReport, StoredIncidentSubscription } from './setup-result';
import { stepErrorMessage } from './step-error';

/** webhook.test is not subscribed: the test call sends it regardless. */
const SUBSCRIBED_INCIDENT_EVENTS = INCIDENT_EVENTS;

export interface EnsureIncidentSubscriptionsInput {
  incidents: IncidentClient;
  accountId: string;
  connectorUrl: string;
  clientIds: string[];
  stored?: StoredIncidentSubscription[] | undefined;
  /** Injectable for tests. Default: `sub_` + 24 random bytes, base64url. */
  newSubscriptionId?: () => string;
}

interface EnsuredIncidentSubscription extends StoredIncidentSubscription {
  secret: string;
}

export interface EnsureIncidentSubscriptionsResult {
  subscriptions: EnsuredIncidentSubscription[];
  steps: StepReport[];
}

export function incidentSubscriptionDescription(accountId: string): string {
  return `incident-desk account ${accountId}`;
}

const defaultSubscriptionId = () => `sub_${randomBytes(24).toString('base64url')}`;

function clientIdOf(record: TWebhookSubscriptionRecord): string | undefined {
  return typeof record.clientId === 'string' ? record.clientId : undefined;
}

function eventsDiffer(events: string[] | undefined): boolean {
  const have = new Set(events ?? []);
  return (
    have.size !== SUBSCRIBED_INCIDENT_EVENTS.length ||
    SUBSCRIBED_INCIDENT_EVENTS.some((event) => !have.has(event))
  );
}

/** What finding, adopting or creating one client's subscription works with. */
interface SubscriptionContext {
  incidents: IncidentClient;
  connectorUrl: string;
  description: string;
  newId: () => string;
  stored: StoredIncidentSubscription[] | undefined;
  /** The subscriptions the service lists. */
  remote: TWebhookSubscriptionRecord[];
}

interface ClientOutcome {
  subscription: EnsuredIncidentSubscription;
  outcome: 'created' | 'updated' | 'found';
  message?: string | undefined;
}

/** This account's subscription for the client: its receiver URL and description. */
function isOurs(ctx: SubscriptionContext, clientId: string, record: TWebhookSubscriptionRecord) {
  return (
    clientIdOf(record) === clientId &&
    record.description === ctx.description &&
    subscriptionIdOf(ctx.connectorUrl, record.url) !== null
  );
}

export async function ensureIncidentSubscriptions(
  input: EnsureIncidentSubscriptionsInput,
): Promise<EnsureIncidentSubscriptionsResult> {
  const { incidents, accountId, connectorUrl } = input;
  const description = incidentSubscriptionDescription(accountId);
  const steps: StepReport[] = [];
  const subscriptions: EnsuredIncidentSubscription[] = [];
  // A client whose step failed keeps its stored subscription, so the result is the whole set to store.
  const storedWithSecret = (clientId: string): EnsuredIncidentSubscription[] => {
    const stored = input.stored?.find((entry) => entry.clientId === clientId);
    return stored?.secret ? [{ ...stored, secret: stored.secret }] : [];
  };

  let remote: TWebhookSubscriptionRecord[];
  try {
    remote = await incidents.webhooks.list();
  } catch (error) {
    const message = `could not list webhook subscriptions: ${stepErrorMessage(error)}`;
    return {
      subscriptions: input.clientIds.flatMap(storedWithSecret),
      steps: input.clientIds.map((clientId) => ({
        step: 'incident_subscription',
        target: clientId,
        outcome: 'failed',
        message,
      })),
    };
  }

  const ctx: SubscriptionContext = {
    incidents,
    connectorUrl,
    description,
    newId: input.newSubscriptionId ?? defaultSubscriptionId,
    stored: input.stored,
    remote,
  };
  for (const clientId of input.clientIds) {
    const report = (outcome: StepReport['outcome'], message?: string) =>
      steps.push({
        step: 'incident_subscription',
        target: clientId,
        outcome,
        ...(message ? { message } : {}),
      });
    try {
      const ensured = await ensureClientSubscription(ctx, clientId);
      subscriptions.push(ensured.subscription);
      report(ensured.outcome, ensured.message);
    } catch (error) {
      subscriptions.push(...storedWithSecret(clientId));
      report('failed', stepErrorMessage(error));
    }
  }
  steps.push(...(await deleteUnconfigured(ctx, new Set(input.clientIds))));
  return { subscriptions, steps };
}

/** The client's subscription: found by its stored id, else adopted (this account's), else created. */
async function ensureClientSubscription(
  ctx: SubscriptionContext,
  clientId: string,
): Promise<ClientOutcome> {
  const { incidents, connectorUrl, description } = ctx;
  const stored = ctx.stored?.find((entry) => entry.clientId === clientId);
  const byStoredId = stored
    ? ctx.remote.find((record) => record.id === stored.webhookId)
    : undefined;
  const chosen = byStoredId ?? ctx.remote.find((record) => isOurs(ctx, clientId, record));

  if (!chosen?.id) {
    const subscriptionId = stored?.subscriptionId ?? ctx.newId();
    const created = await incidents.webhooks.create({
      url: incidentWebhookUrl(connectorUrl, subscriptionId),
      events: [...SUBSCRIBED_INCIDENT_EVENTS],
      description,
      clientId,
    });
    if (!created.id) throw new Error('the incident service returned no subscription id');
    return {
      subscription: { clientId, subscriptionId, webhookId: created.id, secret: created.secret },
      outcome: 'created',
      message: stored ? 'the stored subscription no longer existed' : undefined,
    };
  }

  const notes: string[] = [];
  const known = stored?.webhookId === chosen.id ? stored : undefined;
  const subscriptionId =
    known?.subscriptionId ?? subscriptionIdOf(connectorUrl, chosen.url) ?? ctx.newId();
  const url = incidentWebhookUrl(connectorUrl, subscriptionId);
  if (chosen.url !== url || eventsDiffer(chosen.events) || chosen.description !== description) {
    await incidents.webhooks.update(chosen.id, {
      url,
      events: [...SUBSCRIBED_INCIDENT_EVENTS],
      description,
    });
    notes.push('restored url, events and description');
  }
  let secret = known?.secret ?? null;
  if (!secret) {
    // The service shows a secret only on creation and rotation.
    secret = (await incidents.webhooks.rotateSecret(chosen.id)).secret;
    notes.push('rotated the signing secret, the stored one was lost');
  }
  // Copies would deliver every event twice.
  for (const copy of ctx.remote.filter(
    (record) => record !== chosen && record.id && isOurs(ctx, clientId, record),
  )) {
    await incidents.webhooks.delete(copy.id as string);
    notes.push(`deleted duplicate ${copy.id}`);
  }
  return {
    subscription: { clientId, subscriptionId, webhookId: chosen.id, secret },
    outcome: notes.length > 0 ? 'updated' : 'found',
    message: notes.join('; ') || undefined,
  };
}

/** This account's subscriptions for clients no longer configured would keep delivering events. */
async function deleteUnconfigured(
  ctx: SubscriptionContext,
  configured: ReadonlySet<string>,
): Promise<StepReport[]> {
  const steps: StepReport[] = [];
  for (const record of ctx.remote) {
    const clientId = clientIdOf(record);
    if (!record.id || !clientId || configured.has(clientId)) continue;
    if (
      record.description !== ctx.description ||
      subscriptionIdOf(ctx.connectorUrl, record.url) === null
    )
      continue;
    try {
      await ctx.incidents.webhooks.delete(record.id);
      steps.push({
        step: 'incident_subscription',
        target: clientId,
        outcome: 'updated',
        message: `deleted ${record.id}: the client is no longer configured`,
      });
    } catch (error) {
      steps.push({
        step: 'incident_subscription',
        target: clientId,
        outcome: 'failed',
        message: `could not delete ${record.id} (client no longer configured): ${stepErrorMessage(error)}`,
      });
    }
  }
  return steps;
}
