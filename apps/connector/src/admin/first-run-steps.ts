// Each step of the admin page's first-run checklist from what the connector records: what is
// done, and what the admin does next.
import type { SetupStatus } from '../accounts';
import { TAG_SUBMIT } from '../setup';
import type { FirstRunTexts } from './first-run-texts';

type StepState = 'done' | 'todo' | 'waiting';
/** A button the page offers for the step: run setup, send test deliveries, authorise again. */
type StepAction = 'save_incident_key' | 'run_setup' | 'test_webhooks' | 'authorize';

export interface ChecklistStep {
  id: 'zendesk' | 'incident_key' | 'setup' | 'webhooks' | 'sidebar';
  title: string;
  state: StepState;
  /** What is true now, in a sentence. */
  summary: string;
  /** What to do next; null once done. */
  next: string | null;
  action: StepAction | null;
}

function step(
  id: ChecklistStep['id'],
  title: string,
  done: boolean,
  summary: string,
  next: string | null,
  action: StepAction | null = null,
  waiting = false,
): ChecklistStep {
  return done
    ? { id, title, state: 'done', summary, next: null, action: null }
    : { id, title, state: waiting ? 'waiting' : 'todo', summary, next, action };
}

/** `zendeskUrl`: where the connector reaches the account (ZENDESK_BASE_URL_TEMPLATE filled in). */
export function zendeskStep(
  connectionState: string,
  subdomain: string,
  zendeskUrl: string,
  t: FirstRunTexts,
): ChecklistStep {
  return connectionState === 'active'
    ? step('zendesk', t.title.zendesk, true, t.connectedTo(zendeskUrl), null)
    : step(
        'zendesk',
        t.title.zendesk,
        false,
        connectionState === 'reauthorization_required'
          ? t.tokenRefused(subdomain)
          : t.notConnected(subdomain),
        t.authorizeAgain,
        'authorize',
      );
}

export function incidentKeyStep(
  configuration: { incidentClientId: string | null; incidentClientName: string | null } | null,
  keySet: boolean,
  t: FirstRunTexts,
): ChecklistStep {
  const clientName = configuration?.incidentClientName;
  return step(
    'incident_key',
    t.title.incident_key,
    keySet,
    keySet
      ? t.keySavedFor(
          clientName
            ? `${clientName} (${configuration!.incidentClientId})`
            : configuration!.incidentClientId!,
        )
      : t.noKey,
    t.enterKey,
    'save_incident_key',
  );
}

export function setupStep(setup: SetupStatus, keySet: boolean, t: FirstRunTexts): ChecklistStep {
  const setupDone = setup.state === 'succeeded';
  const setupNext: Record<string, [string, StepAction | null, boolean]> = {
    never_run: [t.setupNext.never_run, 'run_setup', false],
    needs_configuration: keySet
      ? [t.setupNext.keySavedRunSetup, 'run_setup', false]
      : [t.setupNext.keyFirst, null, false],
    needs_authorization: [t.setupNext.needs_authorization, 'authorize', false],
    failed: [t.setupNext.failed(setup.report?.message), 'run_setup', false],
    queued: [t.setupNext.queued, null, true],
    running: [t.setupNext.running, null, true],
  };
  const [next, action, waiting] = setupNext[setup.state] ?? setupNext.never_run!;
  return step(
    'setup',
    t.title.setup,
    setupDone,
    setupDone ? t.setupDone : (t.setupSummary[setup.state] ?? t.setupSummary.never_run!),
    next,
    action,
    waiting,
  );
}

export function webhooksStep(
  subscriptions: { clientId: string; lastTestAt: Date | null; lastEventAt: Date | null }[],
  lastZendeskWebhookAt: Date | null | undefined,
  setupDone: boolean,
  /** The stored token may ask Zendesk to test its webhook (setup's scopes). */
  canTestZendesk: boolean,
  t: FirstRunTexts,
): ChecklistStep {
  const untested = subscriptions.filter((row) => !row.lastTestAt && !row.lastEventAt);
  const incidentConfirmed = subscriptions.length > 0 && untested.length === 0;
  const zendeskConfirmed = Boolean(lastZendeskWebhookAt);
  const webhookParts = [
    incidentConfirmed
      ? t.incidentDelivered
      : subscriptions.length === 0
        ? t.noSubscription
        : t.noDeliveryFor(untested.map((row) => row.clientId).join(', ')),
    zendeskConfirmed ? t.zendeskDelivered : t.noZendeskWebhook,
  ];
  const testable = !incidentConfirmed || canTestZendesk;
  return step(
    'webhooks',
    t.title.webhooks,
    incidentConfirmed && zendeskConfirmed,
    `${webhookParts.join('; ')}.`.replace(/^./, (first) => first.toUpperCase()),
    !setupDone
      ? t.runSetupFirst
      : testable
        ? t.sendTest(!zendeskConfirmed && canTestZendesk)
        : t.zendeskTestsAtSetup(TAG_SUBMIT),
    setupDone && testable ? 'test_webhooks' : null,
  );
}

export function sidebarStep(sidebarOpened: boolean, t: FirstRunTexts): ChecklistStep {
  return step(
    'sidebar',
    t.title.sidebar,
    sidebarOpened,
    sidebarOpened ? t.sidebarOpened : t.sidebarNotOpened,
    t.installSidebar,
  );
}
