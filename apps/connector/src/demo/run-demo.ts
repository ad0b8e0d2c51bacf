// The zero-configuration demo: account `demo` of the Zendesk sandbox
// connected with client credentials, the incident sandbox's demo key and clients saved, and
// setup run and saved. Every step looks before it
// writes, so running it on every start creates nothing twice.
import type { TDatabase } from '@incident-desk/db';
import {
  connectWithClientCredentials,
  type DatabaseAccountContextProvider,
  finishSetup,
  loadSetupExisting,
  readAccountSettings,
  readOwnDomains,
  reconnectAccount,
  saveIncidentConnection,
  saveOwnDomains,
  saveSetupResult,
  STEADY_STATE_SCOPES,
  testZendeskWebhook,
  type TZendeskOAuthConfig,
} from '../accounts';
import type { DemoConfig } from '../config';
import type { SecretBox } from '../secrets';
import { runSetup, type SetupResult } from '../setup';
import { waitForReady } from './wait-for-sandboxes';

/**
 * The protected domains of the incident sandbox's demo clients (their `safeDomain`): the client's
 * own, never offered as threats found in a ticket, as an admin would set them.
 */
export const DEMO_OWN_DOMAINS = ['demo-parent.example', 'demo-retail.example', 'demo-bank.example'];

/** Setup creates fields, webhooks and triggers: plain `write` as an administrator (src/setup/SCOPES.md). */
const SETUP_SCOPES = 'read write';

export interface DemoInput {
  db: TDatabase;
  secretBox: SecretBox;
  accounts: DatabaseAccountContextProvider;
  oauth: TZendeskOAuthConfig;
  demo: DemoConfig;
  /** Where both sandboxes reach this connector. */
  connectorUrl: string;
  readyTimeoutMs?: number;
  log?: (message: string) => void;
}

export interface DemoResult {
  accountId: string;
  setup: SetupResult;
}

export async function runDemo(input: DemoInput): Promise<DemoResult> {
  const { db, secretBox, oauth, demo } = input;
  const log = input.log ?? console.log;
  const ready = input.readyTimeoutMs === undefined ? {} : { timeoutMs: input.readyTimeoutMs };
  await waitForReady('the Zendesk sandbox', demo.zendeskSandboxUrl, ready);
  await waitForReady('the incident sandbox', demo.incidentSandboxUrl, ready);

  // The token provider renews client-credentials tokens with the configured client, so the demo
  // uses that client too (the sandbox's local global client by default) rather than another one.
  const connect = (scope: string) =>
    connectWithClientCredentials({
      db,
      secretBox,
      oauth: { ...oauth, scope },
      subdomain: demo.subdomain,
    });
  const { accountId } = await connect(SETUP_SCOPES);
  // each start installs the demo account afresh, as an admin would
  await reconnectAccount(db, accountId);
  await saveIncidentConnection(db, secretBox, accountId, {
    baseUrl: demo.incidentSandboxUrl,
    apiKey: demo.incidentApiKey,
    clientId: demo.incidentClientId,
    subClientIds: demo.incidentSubClientIds,
  });

  // set once: an admin's later change is kept across restarts
  if ((await readOwnDomains(db, accountId)).length === 0)
    await saveOwnDomains(db, accountId, DEMO_OWN_DOMAINS);

  const clients = await input.accounts.clientsFor(accountId);
  const settings = await readAccountSettings(db, accountId);
  const setup = await runSetup({
    accountId,
    connectorUrl: input.connectorUrl,
    zendesk: clients.zendesk,
    incidents: clients.incidents(),
    incidentClientIds: clients.incidentClientIds,
    forwardInternalNotes: settings.forwardInternalNotes,
    createQueueViews: settings.createZendeskViews,
    existing: await loadSetupExisting(db, secretBox, accountId),
  });
  await saveSetupResult(db, secretBox, accountId, setup);
  // as an installed account's setup does: while the token may, Zendesk tests the webhook, and its
  // signed test delivery confirms the Zendesk direction on the admin page's checklist
  const webhookTest = await testZendeskWebhook({
    zendesk: clients.zendesk,
    connectorUrl: input.connectorUrl,
    accountId,
    webhookId: setup.zendeskWebhook?.id ?? null,
    now: new Date(),
  });
  if (webhookTest.outcome !== 'delivered')
    log(`demo: Zendesk's webhook test: ${webhookTest.message}`);
  // Steady state needs less than setup did: keep only the narrower token.
  const narrowed = await connect(oauth.scope || STEADY_STATE_SCOPES);
  // What the admin page shows under Setup, as for an installed account.
  await finishSetup(
    db,
    accountId,
    setup.ok ? 'succeeded' : 'failed',
    {
      ok: setup.ok,
      message: setup.ok ? 'Setup finished (demo).' : 'Setup finished with failed steps (demo).',
      steps: setup.steps,
      scopeAfter: narrowed.scope,
    },
    new Date(),
  );

  const counts = new Map<string, number>();
  for (const step of setup.steps) counts.set(step.outcome, (counts.get(step.outcome) ?? 0) + 1);
  log(
    `demo: account "${demo.subdomain}" connected (${accountId}); setup ${setup.ok ? 'ok' : 'had failures'}: ${[...counts].map(([k, n]) => `${n} ${k}`).join(', ')}`,
  );
  for (const step of setup.steps.filter((s) => s.outcome === 'failed')) {
    log(`demo: setup step ${step.step} ${step.target} failed: ${step.message ?? ''}`);
  }
  return { accountId, setup };
}

/** The walk through the whole loop, in the browser only, printed once the demo is set up. */
export function demoNextSteps(demo: DemoConfig, connectorUrl: string): string {
  const zendesk = demo.zendeskSandboxUrl;
  const consoleUrl = `${demo.incidentSandboxUrl}/_sandbox/console/`;
  return [
    'Demo ready. Play the whole loop in the browser:',
    `  1. Customer: submit a request naming a suspicious link at ${zendesk}/hc/requests/new`,
    '     (or use ticket 1, which has one).',
    '  2. Agent: open it with the form\'s "Open it in the agent workspace" link',
    `     (ticket 1: ${zendesk}/agent/tickets/1; every ticket: ${zendesk}/agent/tickets)`,
    '     and press "Report for takedown" in the sidebar (or add the tag incident_submit).',
    `  3. Analyst: in ${consoleUrl} open that incident (client ${demo.incidentClientId}),`,
    '     press case_building, then approval_required: each move comes back as an internal note.',
    '  4. Agent: press "Approve takedown" in the sidebar; then, in the console,',
    '     takedown_in_progress and takedown_success.',
    `  Admin page: ${connectorUrl}/admin/ (subdomain ${demo.subdomain})`,
  ].join('\n');
}
