// Each step of the admin page's first-run checklist from what the connector records: what is
// done, and what the admin does next.
import type { SetupStatus } from '../accounts/setup-state';
import { TAG_SUBMIT } from '../sync/ticket-events/ticket-tags';

export type StepState = 'done' | 'todo' | 'waiting';
/** A button the page offers for the step: run setup, send test deliveries, authorise again. */
export type StepAction = 'save_incident_key' | 'run_setup' | 'test_webhooks' | 'authorize';

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

/** Where setup stands, in a sentence. */
const SETUP_SUMMARY: Record<string, string> = {
  never_run: 'Setup has not run yet.',
  queued: 'Setup is queued.',
  running: 'Setup is running.',
  failed: 'The last setup run failed.',
  needs_configuration: 'Setup waits for the incident API key.',
  needs_authorization: 'Setup waits for a wider Zendesk permission.',
};

export function zendeskStep(connectionState: string, subdomain: string): ChecklistStep {
  return connectionState === 'active'
    ? step('zendesk', 'Connection to Zendesk', true, `Connected to ${subdomain}.zendesk.com.`, null)
    : step(
        'zendesk',
        'Connection to Zendesk',
        false,
        connectionState === 'reauthorization_required'
          ? `Zendesk no longer accepts the connector's token for ${subdomain}.`
          : `incident-desk is not connected to ${subdomain}.`,
        'Authorise incident-desk with Zendesk again, as a Zendesk admin.',
        'authorize',
      );
}

export function incidentKeyStep(
  configuration: { incidentClientId: string | null; incidentClientName: string | null } | null,
  keySet: boolean,
): ChecklistStep {
  const clientName = configuration?.incidentClientName;
  return step(
    'incident_key',
    'Incident API key',
    keySet,
    keySet
      ? `Saved for client ${clientName ? `${clientName} (${configuration!.incidentClientId})` : configuration!.incidentClientId}.`
      : 'No incident API key is saved yet.',
    'Enter the API key and client id the incident service gave you, and save: the key is checked with the service before it is kept.',
    'save_incident_key',
  );
}

export function setupStep(setup: SetupStatus, keySet: boolean): ChecklistStep {
  const setupDone = setup.state === 'succeeded';
  const setupNext: Record<string, [string, StepAction | null, boolean]> = {
    never_run: [
      'Run setup: it creates the ticket fields, the webhook and the triggers.',
      'run_setup',
      false,
    ],
    needs_configuration: keySet
      ? ['The incident API key is saved: run setup now.', 'run_setup', false]
      : ['Save the incident API key first, then run setup.', null, false],
    needs_authorization: [
      'Setup needs a wider Zendesk permission once: authorise it with Zendesk; setup then runs by itself.',
      'authorize',
      false,
    ],
    failed: [
      `Setup failed${setup.report?.message ? `: ${setup.report.message}` : ''}. Fix what it names, then run it again.`,
      'run_setup',
      false,
    ],
    queued: ['Setup is queued; this page shows when it is done.', null, true],
    running: ['Setup is running; this page shows when it is done.', null, true],
  };
  const [next, action, waiting] = setupNext[setup.state] ?? setupNext.never_run!;
  return step(
    'setup',
    'Setup run',
    setupDone,
    setupDone
      ? 'Fields, webhook and triggers are in place.'
      : (SETUP_SUMMARY[setup.state] ?? 'Setup has not run yet.'),
    next,
    action,
    waiting,
  );
}

export function webhooksStep(
  subscriptions: { clientId: string; lastTestAt: Date | null; lastEventAt: Date | null }[],
  lastZendeskWebhookAt: Date | null | undefined,
  setupDone: boolean,
): ChecklistStep {
  const untested = subscriptions.filter((row) => !row.lastTestAt && !row.lastEventAt);
  const incidentConfirmed = subscriptions.length > 0 && untested.length === 0;
  const zendeskConfirmed = Boolean(lastZendeskWebhookAt);
  const webhookParts = [
    incidentConfirmed
      ? 'the incident service delivered a test event'
      : subscriptions.length === 0
        ? 'no incident-service subscription yet'
        : `no delivery yet from the incident service for ${untested.map((row) => row.clientId).join(', ')}`,
    zendeskConfirmed ? 'Zendesk delivered a signed webhook' : 'no webhook from Zendesk yet',
  ];
  return step(
    'webhooks',
    'Webhooks confirmed',
    incidentConfirmed && zendeskConfirmed,
    `${webhookParts.join('; ')}.`.replace(/^./, (first) => first.toUpperCase()),
    !setupDone
      ? 'Run setup first: it subscribes to the incident service and creates the Zendesk webhook.'
      : !incidentConfirmed
        ? 'Send a test delivery: the incident service calls the connector and this step records it.'
        : `Zendesk calls the connector when its triggers fire: add the tag ${TAG_SUBMIT} to a test ticket with a Threat, and this step is done.`,
    setupDone && !incidentConfirmed ? 'test_webhooks' : null,
    setupDone && incidentConfirmed,
  );
}

export function sidebarStep(sidebarOpened: boolean): ChecklistStep {
  return step(
    'sidebar',
    'Sidebar installed',
    sidebarOpened,
    sidebarOpened
      ? 'An agent has opened the incident-desk sidebar on a ticket.'
      : 'No agent has opened the incident-desk sidebar yet.',
    'Install the incident-desk app in Zendesk (Admin Center, Apps and integrations, Marketplace) and open any ticket: the sidebar shows and this step is done.',
  );
}
