// How a setup run ended, as codes and facts the admin page words in the admin's language, with
// the English `message` the report always had (kept for reports read before the codes existed).
import type {
  TSetupNarrowing,
  TSetupOutcome,
  TZendeskWebhookTest,
} from '@incident-desk/admin-contract';
import { type SetupResult, stepErrorMessage } from '../setup';
import { AccountUnavailableError } from './account-context';
import { shortSetupReport, type SetupReport } from './setup-state';
import type { ZendeskWebhookTest } from './zendesk-webhook-test';

/** The queue stopped the run: it outran the setup time limit (SETUP_JOB_TIMEOUT_SECONDS). */
export class SetupStoppedError extends Error {
  constructor() {
    super(
      'it ran past its time limit (Zendesk or the incident service answered too slowly); it is tried again',
    );
  }
}

function stoppedOutcome(error: unknown): TSetupOutcome {
  if (error instanceof SetupStoppedError) return { code: 'ran_too_long' };
  if (error instanceof AccountUnavailableError)
    return { code: 'account_unavailable', reason: error.reason };
  return { code: 'stopped', reason: stepErrorMessage(error) };
}

/** A run that stopped before its end: why. */
export function stoppedReport(error: unknown): SetupReport {
  const reason =
    error instanceof AccountUnavailableError || error instanceof SetupStoppedError
      ? error.message
      : stepErrorMessage(error);
  return shortSetupReport(stoppedOutcome(error), `Setup stopped: ${reason}`, null);
}

/** Zendesk's webhook test in codes, unless it was delivered (the report then says nothing). */
function webhookTestCode(test: ZendeskWebhookTest): TZendeskWebhookTest | undefined {
  if (test.outcome === 'delivered') return undefined;
  return test.outcome === 'refused'
    ? { outcome: 'refused', status: test.status }
    : { outcome: test.outcome };
}

function narrowingText(narrowing: TSetupNarrowing | undefined): string {
  if (!narrowing) return '';
  return narrowing.code === 'kept_wider'
    ? ` Zendesk kept scopes beyond the steady state (${narrowing.scope}).`
    : ` The token could not be narrowed to "${narrowing.scope}": ${narrowing.reason}.`;
}

/** A run that went to its end: how many steps failed, the webhook test, the token's narrowing. */
export function finishedReport(
  result: SetupResult,
  test: ZendeskWebhookTest,
  after: { scopeAfter: string; narrowing?: TSetupNarrowing },
): SetupReport {
  const failedSteps = result.steps.filter((step) => step.outcome === 'failed').length;
  const webhookTest = webhookTestCode(test);
  return {
    ok: result.ok,
    outcome: result.ok ? { code: 'finished' } : { code: 'finished_with_failures', failedSteps },
    ...(webhookTest ? { webhookTest } : {}),
    ...(after.narrowing ? { narrowing: after.narrowing } : {}),
    message:
      (result.ok ? 'Setup finished.' : `Setup finished with ${failedSteps} failed step(s).`) +
      (test.outcome === 'delivered' ? '' : ` Zendesk's webhook test: ${test.message}`) +
      narrowingText(after.narrowing),
    steps: result.steps,
    scopeAfter: after.scopeAfter,
  };
}
