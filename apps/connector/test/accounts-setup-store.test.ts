// Setup (src/setup) run on an installed account through the accounts side: clients from the
// database, its results stored sealed, and a rerun reading them back creates nothing twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIncidentSandbox } from '@incident-desk/incident-sandbox';
import {
  loadSetupExisting,
  saveIncidentConnection,
  saveSetupResult,
} from '../src/accounts/account-configuration';
import { createAccountContextProvider } from '../src/accounts/account-context-provider';
import { createIncidentSubscriptionDirectory } from '../src/accounts/webhook-secret-directories';
import { runSetup } from '../src/setup/run-setup';
import { install, startAccountsHarness, type AccountsHarness } from './accounts-harness';

const CLIENT_IDS = ['cl_demo_parent', 'cl_demo_retail', 'cl_demo_bank'];

describe('setup results stored per account (pglite)', () => {
  let h: AccountsHarness;
  let incidentUrl: string;
  let closeIncidents: () => Promise<void>;

  beforeAll(async () => {
    h = await startAccountsHarness('pglite', { scope: 'read write' });
    const incidents = createIncidentSandbox({ webhookDelayMs: 5, webhookRetryDelaysMs: [20] });
    incidentUrl = (await incidents.listen(0)).url;
    closeIncidents = () => incidents.close();
  });
  afterAll(async () => {
    await closeIncidents?.();
    await h?.close();
  });

  it('first run creates and stores; forAccount then works; a rerun finds everything', async () => {
    const users = await h.createAccount('setupco');
    expect((await install(h, 'setupco', users.adminId)).status).toBe(200);
    const { id: accountId } = await h.db.prisma.account.findUniqueOrThrow({
      where: { zendeskSubdomain: 'setupco' },
    });
    await saveIncidentConnection(h.db, h.secretBox, accountId, {
      baseUrl: incidentUrl,
      apiKey: 'sandbox-demo-key',
      clientId: CLIENT_IDS[0]!,
      subClientIds: CLIENT_IDS.slice(1),
    });
    const contexts = createAccountContextProvider({
      db: h.db,
      secretBox: h.secretBox,
      config: { oauth: h.oauth, now: h.now, zendeskClientOptions: { retry: false } },
    });
    await expect(contexts.forAccount(accountId)).rejects.toMatchObject({
      reason: 'not_configured',
    });

    const setupOnce = async () => {
      const clients = await contexts.clientsFor(accountId);
      const result = await runSetup({
        accountId,
        connectorUrl: h.connectorUrl,
        zendesk: clients.zendesk,
        incidents: clients.incidents(),
        incidentClientIds: clients.incidentClientIds,
        forwardInternalNotes: false,
        existing: await loadSetupExisting(h.db, h.secretBox, accountId),
      });
      await saveSetupResult(h.db, h.secretBox, accountId, result);
      return result;
    };

    const first = await setupOnce();
    expect(first.steps.filter((s) => s.outcome === 'failed')).toEqual([]);
    const context = await contexts.forAccount(accountId);
    expect(context.fields).toEqual(first.fields);

    const directory = createIncidentSubscriptionDirectory(h.db, h.secretBox);
    for (const subscription of first.incidentSubscriptions) {
      expect(await directory.find(subscription.subscriptionId)).toEqual({
        accountId,
        secrets: [subscription.secret],
      });
    }

    const second = await setupOnce();
    expect(second.steps.filter((s) => s.outcome === 'created')).toEqual([]);
    expect(second.fields).toEqual(first.fields);
    expect(second.zendeskWebhook?.id).toBe(first.zendeskWebhook?.id);
    // the triggers are setup's by their stored ids, kept across runs
    expect(first.triggerIds).toHaveLength(6);
    expect((await loadSetupExisting(h.db, h.secretBox, accountId)).triggerIds).toEqual(
      first.triggerIds,
    );
    // a run whose trigger step could not say (null) keeps the stored ids
    await saveSetupResult(h.db, h.secretBox, accountId, { ...second, triggerIds: null });
    expect((await loadSetupExisting(h.db, h.secretBox, accountId)).triggerIds).toEqual(
      first.triggerIds,
    );
    expect(await h.db.prisma.incidentSubscription.count({ where: { accountId } })).toBe(3);
  });
});
