// How a setup run ended, in the admin's words, from the connector's codes; Zendesk's webhook test
// too (the setup report and "Send a test delivery" both name it). A report stored before the codes
// existed has only the connector's English message; a code this page does not know yet reads as a
// generic sentence.
import type {
  SetupOutcomeCodes,
  TSetupNarrowing,
  TSetupOutcome,
  TZendeskWebhookTest,
} from '@incident-desk/admin-contract';
import type { Messages } from './i18n/en';

type Texts = Messages['setupOutcome'];

/** Zendesk's webhook test when its delivery did not arrive. */
export function webhookTestText(
  test: TZendeskWebhookTest,
  t: Messages['zendeskWebhookTest'],
): string {
  if (test.outcome === 'refused') return t.refused(test.status);
  return (t.trouble as Record<string, string>)[test.outcome] ?? t.unknown;
}

function outcomeText(outcome: TSetupOutcome, ok: boolean, t: Texts): string {
  switch (outcome.code) {
    case 'finished':
      return t.finished;
    case 'finished_with_failures':
      return t.finishedWithFailures(outcome.failedSteps);
    case 'ran_too_long':
      return t.ranTooLong;
    case 'account_unavailable':
      return t.accountUnavailable(t.accountReason[outcome.reason] ?? outcome.reason);
    case 'stopped':
      return t.stopped(outcome.reason);
    case 'disconnected':
      return t.disconnected(t.disconnectReason[outcome.reason] ?? outcome.reason);
    case 'reauthorization_required':
      return t.reauthorizationRequired;
    case 'needs_configuration':
      return t.needsConfiguration;
    case 'needs_setup_scopes':
      return t.needsSetupScopes(outcome.granted, outcome.needed);
    default:
      return ok ? t.unknownOk : t.unknownFailed;
  }
}

function narrowingText(narrowing: TSetupNarrowing, t: Texts): string {
  switch (narrowing.code) {
    case 'kept_wider':
      return t.keptWider(narrowing.scope);
    case 'not_narrowed':
      return t.notNarrowed(narrowing.scope, narrowing.reason);
    default:
      return '';
  }
}

/** The report's outcome line: from its codes, or its stored English message when it has none. */
export function setupOutcomeText(
  report: Partial<SetupOutcomeCodes> & { ok: boolean; message: string },
  texts: Pick<Messages, 'setupOutcome' | 'zendeskWebhookTest'>,
): string {
  if (!report.outcome) return report.message;
  const t = texts.setupOutcome;
  const test = report.webhookTest
    ? t.webhookTest(webhookTestText(report.webhookTest, texts.zendeskWebhookTest))
    : '';
  const narrowing = report.narrowing ? narrowingText(report.narrowing, t) : '';
  return outcomeText(report.outcome, report.ok, t) + test + narrowing;
}
