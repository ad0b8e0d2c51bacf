// The incident service's webhook subscriptions setup made for the account's clients, deleted with
// the account's own key: those it stored, and any other the service lists as this account's (its
// description and the connector's receiver address), so none keeps delivering to a removed account.
import type { DisconnectStep } from '@incident-desk/admin-contract';
import { NotFoundError, type IncidentClient } from '@incident-desk/incident-api';
import { incidentSubscriptionDescription, stepErrorMessage, subscriptionIdOf } from '../setup';

export interface IncidentSubscriptionsToRemove {
  /** The incident service under the account's key; null when the account has no connection. */
  incidents: IncidentClient | null;
  accountId: string;
  connectorUrl: string;
  stored: { clientId: string; externalId: string | null }[];
}

export async function removeIncidentSubscriptions(
  input: IncidentSubscriptionsToRemove,
): Promise<DisconnectStep[]> {
  const { incidents, accountId } = input;
  if (!incidents) {
    return input.stored.length === 0
      ? []
      : [
          {
            item: 'incident_subscription',
            target: 'all clients',
            outcome: 'skipped',
            message:
              'no incident API key is saved: remove the subscriptions in the incident service',
          },
        ];
  }
  const steps: DisconnectStep[] = [];
  const toDelete = new Map<string, string>();
  for (const row of input.stored) if (row.externalId) toDelete.set(row.externalId, row.clientId);
  try {
    const description = incidentSubscriptionDescription(accountId);
    for (const record of await incidents.webhooks.list()) {
      const ours =
        record.description === description &&
        subscriptionIdOf(input.connectorUrl, record.url) !== null;
      if (record.id && ours)
        toDelete.set(record.id, typeof record.clientId === 'string' ? record.clientId : record.id);
    }
  } catch (error) {
    steps.push({
      item: 'incident_subscription',
      target: 'subscriptions by description',
      outcome: 'failed',
      message: `could not list webhook subscriptions: ${stepErrorMessage(error)}`,
    });
  }
  for (const [id, clientId] of toDelete) {
    try {
      await incidents.webhooks.delete(id);
      steps.push({ item: 'incident_subscription', target: clientId, outcome: 'removed' });
    } catch (error) {
      steps.push(
        error instanceof NotFoundError
          ? { item: 'incident_subscription', target: clientId, outcome: 'already_gone' }
          : {
              item: 'incident_subscription',
              target: clientId,
              outcome: 'failed',
              message: stepErrorMessage(error),
            },
      );
    }
  }
  return steps;
}
