// Asks the incident service to send webhook.test to every subscription. Arrival is confirmed by
// the receiver (it records connector health); this reports whether each request was accepted.
import type { IncidentClient } from '@incident-desk/incident-api';
import type { StepReport } from './setup-result';
import { stepErrorMessage } from './step-error';

export interface TestDeliveryOutcome {
  webhookId: string;
  requested: boolean;
}

export async function requestTestDeliveries(
  incidents: IncidentClient,
  subscriptions: { clientId: string; webhookId: string }[],
): Promise<{ outcomes: TestDeliveryOutcome[]; steps: StepReport[] }> {
  const outcomes: TestDeliveryOutcome[] = [];
  const steps: StepReport[] = [];
  for (const { clientId, webhookId } of subscriptions) {
    try {
      await incidents.webhooks.test(webhookId);
      outcomes.push({ webhookId, requested: true });
      steps.push({ step: 'incident_test_delivery', target: clientId, outcome: 'requested' });
    } catch (error) {
      outcomes.push({ webhookId, requested: false });
      steps.push({
        step: 'incident_test_delivery',
        target: clientId,
        outcome: 'failed',
        message: stepErrorMessage(error),
      });
    }
  }
  return { outcomes, steps };
}
