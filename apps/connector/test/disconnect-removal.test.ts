// What a disconnect removes, against both sandboxes after a real setup: the queue views (stored
// and by title), setup's triggers and webhook, the ticket fields unless tickets use them (or the
// admin asks), the account's incident-service subscriptions; nothing of another account's; a
// record already gone is no failure, a refused deletion is reported and the rest still goes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIncidentClient, type IncidentClient } from '@incident-desk/incident-api';
import { createIncidentSandbox, type IncidentSandbox } from '@incident-desk/incident-sandbox';
import { ZendeskClient } from '@incident-desk/zendesk-api';
import { createZendeskSandbox, type ZendeskSandbox } from '@incident-desk/zendesk-sandbox';
import { removeIncidentSubscriptions } from '../src/disconnect/remove-incident-subscriptions';
import { removeZendeskSetup } from '../src/setup/remove-setup-objects';
import { incidentSubscriptionDescription } from '../src/setup/ensure-incident-subscriptions';
import { runSetup, type SetupResult } from '../src/setup';
import { backends, openTestDatabase } from './support/test-database';

const CONNECTOR = 'http://connector.test';
const CLIENT_IDS = ['cl_demo_parent', 'cl_demo_retail'];

describe.each(backends)('what a disconnect removes (%s)', (backend) => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let zendeskSandbox: ZendeskSandbox;
  let incidentSandbox: IncidentSandbox;
  let zendeskUrl: string;
  let incidents: IncidentClient;
  const closers: (() => Promise<void>)[] = [];
  let counter = 0;

  async function setUpAccount(before?: (zendesk: ZendeskClient) => Promise<void>) {
    counter += 1;
    const subdomain = `removal${counter}`;
    zendeskSandbox.createAccount(subdomain);
    const admin = zendeskSandbox.createUser(subdomain, {
      name: 'Ada Admin',
      email: `admin@${subdomain}.example`,
      role: 'admin',
    });
    const token = zendeskSandbox.issueToken(subdomain, admin.id, ['read', 'write'], 7200);
    const zendesk = new ZendeskClient({
      baseUrl: `${zendeskUrl}/_z/${subdomain}`,
      tokenProvider: {
        getAccessToken: async () => token,
        refreshAfterUnauthorized: async () => token,
      },
      retry: false,
    });
    await before?.(zendesk);
    const { id: accountId } = await db.prisma.account.create({
      data: { id: randomUUID(), zendeskSubdomain: subdomain },
    });
    const setup = await runSetup({
      accountId,
      connectorUrl: CONNECTOR,
      zendesk,
      incidents,
      incidentClientIds: CLIENT_IDS,
      forwardInternalNotes: false,
    });
    expect(setup.ok).toBe(true);
    return { subdomain, accountId, zendesk, setup, admin: admin.id };
  }

  const removal = (
    account: Awaited<ReturnType<typeof setUpAccount>>,
    setup: SetupResult,
    deleteTicketFields = false,
  ) =>
    removeZendeskSetup({
      zendesk: account.zendesk,
      db,
      accountId: account.accountId,
      connectorUrl: CONNECTOR,
      viewIds: setup.views ?? [],
      triggerIds: setup.triggerIds ?? [],
      webhookId: setup.zendeskWebhook?.id ?? null,
      fields: setup.fields,
      deleteTicketFields,
    });

  const stateOf = (subdomain: string) => zendeskSandbox.state.account(subdomain)!;

  beforeAll(async () => {
    db = await openTestDatabase(backend);
    zendeskSandbox = createZendeskSandbox({ searchLagMs: 0 });
    const zendesk = await zendeskSandbox.listen(0);
    zendeskUrl = zendesk.url;
    closers.push(zendesk.close);
    incidentSandbox = createIncidentSandbox({ webhookDelayMs: 5, webhookRetryDelaysMs: [20] });
    const incident = await incidentSandbox.listen(0);
    closers.push(() => incidentSandbox.close());
    incidents = createIncidentClient({
      baseURL: incident.url,
      apiKey: 'sandbox-demo-key',
      retry: false,
    });
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await db?.dispose();
  });

  it('removes setup’s views, triggers and webhook, keeps a field tickets use, deletes the others', async () => {
    const account = await setUpAccount();
    const other = await setUpAccount();
    const { setup } = account;
    // a renamed view is still setup's (stored id); an admin's own view and trigger are not
    await account.zendesk.views.update(setup.views![0]!, { title: 'Renamed by the admin' });
    const ownView = await account.zendesk.views.create({
      title: 'The admin’s own view',
      all: [{ field: 'status', operator: 'is', value: 'open' }],
    });
    // and one of the admin's that only looks like setup's: same title, made by the admin
    const lookAlike = await account.zendesk.views.create({
      title: 'Incidents needing your action',
      description: 'Our own queue',
      all: [{ field: 'status', operator: 'is', value: 'pending' }],
    });
    // a ticket holding a Threat URL
    await account.zendesk.tickets.create({
      subject: 'phishing',
      comment: { body: 'see https://evil.example' },
      custom_fields: [{ id: setup.fields.threat!, value: 'https://evil.example' }],
    });

    const steps = await removal(account, setup);
    const by = (item: string) =>
      steps.filter((s) => s.item === item).map((s) => `${s.target}: ${s.outcome}`);
    expect(by('view').sort()).toEqual(
      ['Incidents needing your action: removed', 'Renamed by the admin: removed'].sort(),
    );
    expect(by('trigger')).toHaveLength(6);
    expect(steps.filter((s) => s.item === 'trigger').every((s) => s.outcome === 'removed')).toBe(
      true,
    );
    expect(by('zendesk_webhook')).toEqual([
      `incident-desk connector (${account.accountId}): removed`,
    ]);
    expect(steps.filter((s) => s.item === 'ticket_field')).toEqual([
      {
        item: 'ticket_field',
        target: 'Threat URL',
        outcome: 'kept',
        message: '1 ticket holds a value in it',
      },
      { item: 'ticket_field', target: 'Incident ID', outcome: 'removed' },
      { item: 'ticket_field', target: 'Incident Status', outcome: 'removed' },
    ]);

    const state = stateOf(account.subdomain);
    expect([...state.views.values()].map((v) => v.id).sort()).toEqual(
      [ownView.id, lookAlike.id].sort(),
    );
    expect(state.triggers.size).toBe(0);
    expect(state.webhooks.size).toBe(0);
    expect([...state.ticketFields.keys()]).toEqual([setup.fields.threat]);
    // the other account keeps everything
    const untouched = stateOf(other.subdomain);
    expect([untouched.views.size, untouched.triggers.size, untouched.webhooks.size]).toEqual([
      2, 6, 1,
    ]);
    expect(untouched.ticketFields.size).toBe(3);

    // run again (a disconnect finished after a crash): what is gone is no failure
    const again = await removal(account, setup);
    expect(again.filter((s) => s.outcome === 'failed')).toEqual([]);
    expect(again.find((s) => s.item === 'zendesk_webhook')?.outcome).toBe('already_gone');
  });

  it('leaves an admin’s trigger and field of setup’s titles as they are, by setup and by the disconnect', async () => {
    const made: { triggers: number[]; field: number } = { triggers: [], field: 0 };
    const account = await setUpAccount(async (zendesk) => {
      // made by the admin before setup ran: setup's titles, without setup's mark
      for (const title of ['incident-desk: Report threat for takedown', 'incident-desk: report'])
        made.triggers.push(
          (
            await zendesk.triggers.create({
              title,
              description: 'Our own escalation',
              conditions: {
                all: [{ field: 'current_tags', operator: 'includes', value: 'escalate' }],
                any: [],
              },
              actions: [{ field: 'priority', value: 'high' }],
            })
          ).id,
        );
      made.field = (
        await zendesk.ticketFields.create({
          type: 'text',
          title: 'Incident ID',
          description: 'Our case number',
        })
      ).id;
    });
    const { setup } = account;
    expect(setup.triggerIds).toHaveLength(6);
    expect(setup.triggerIds!.some((id) => made.triggers.includes(id))).toBe(false);
    expect(setup.fields.incidentId).not.toBe(made.field);
    const admins = () => {
      const state = stateOf(account.subdomain);
      return {
        triggers: made.triggers.map((id) => state.triggers.get(id)?.title),
        field: state.ticketFields.get(made.field)?.title,
      };
    };
    const before = admins();
    expect(before).toEqual({
      triggers: ['incident-desk: Report threat for takedown', 'incident-desk: report'],
      field: 'Incident ID',
    });

    const steps = await removal(account, setup, true);
    expect(steps.filter((s) => s.item === 'trigger' && s.outcome === 'removed')).toHaveLength(6);
    expect(steps.filter((s) => s.item === 'ticket_field').map((s) => s.outcome)).toEqual([
      'removed',
      'removed',
      'removed',
    ]);
    expect(admins()).toEqual(before);
    const state = stateOf(account.subdomain);
    expect([...state.triggers.keys()].sort()).toEqual([...made.triggers].sort());
    expect([...state.ticketFields.keys()]).toEqual([made.field]);
  });

  it('keeps every field while the account has linked tickets, and deletes them all when the admin asks', async () => {
    const account = await setUpAccount();
    await db.prisma.incidentLink.create({
      data: { accountId: account.accountId, incidentId: 'inc_1', ticketId: 1n },
    });
    const kept = await removal(account, account.setup);
    expect(
      kept.filter((s) => s.item === 'ticket_field').map((s) => [s.outcome, s.message]),
    ).toEqual(Array(3).fill(['kept', '1 ticket is linked to incidents']));
    expect(stateOf(account.subdomain).ticketFields.size).toBe(3);

    const forced = await removal(account, account.setup, true);
    expect(forced.filter((s) => s.item === 'ticket_field').map((s) => s.outcome)).toEqual([
      'removed',
      'removed',
      'removed',
    ]);
    expect(stateOf(account.subdomain).ticketFields.size).toBe(0);
  });

  it('reports a deletion Zendesk refuses and still removes the rest; a field whose use cannot be told is kept', async () => {
    const account = await setUpAccount();
    const faults = async (rules: object[]) => {
      for (const rule of rules)
        await fetch(`${zendeskUrl}/_sandbox/faults`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ subdomain: account.subdomain, ...rule }),
        });
    };
    await faults([
      { path: '/api/v2/webhooks/*', method: 'DELETE', kind: 'error', status: 500, times: 1 },
      { path: '/api/v2/search*', method: 'GET', kind: 'error', status: 500, times: 3 },
    ]);
    const steps = await removal(account, account.setup);
    await fetch(`${zendeskUrl}/_sandbox/faults`, { method: 'DELETE' });
    expect(steps.find((s) => s.item === 'zendesk_webhook')).toMatchObject({
      outcome: 'failed',
      message: expect.stringMatching(/500/),
    });
    expect(steps.filter((s) => s.item === 'trigger' && s.outcome === 'removed')).toHaveLength(6);
    expect(steps.filter((s) => s.item === 'ticket_field').map((s) => s.outcome)).toEqual([
      'kept',
      'kept',
      'kept',
    ]);
    expect(steps.find((s) => s.item === 'ticket_field')?.message).toMatch(
      /could not tell whether tickets use it/,
    );
  });

  it('deletes the account’s incident subscriptions only', async () => {
    const account = await setUpAccount();
    const other = await setUpAccount();
    const stored = account.setup.incidentSubscriptions.map((s) => ({
      clientId: s.clientId,
      externalId: s.webhookId,
    }));
    const steps = await removeIncidentSubscriptions({
      incidents,
      accountId: account.accountId,
      connectorUrl: CONNECTOR,
      stored,
    });
    expect(steps.map((s) => `${s.target}: ${s.outcome}`).sort()).toEqual(
      CLIENT_IDS.map((id) => `${id}: removed`).sort(),
    );
    const left = await incidents.webhooks.list();
    const ofAccount = (id: string) =>
      left.filter((r) => r.description === incidentSubscriptionDescription(id));
    expect(ofAccount(account.accountId)).toEqual([]);
    expect(ofAccount(other.accountId)).toHaveLength(CLIENT_IDS.length);

    const again = await removeIncidentSubscriptions({
      incidents,
      accountId: account.accountId,
      connectorUrl: CONNECTOR,
      stored,
    });
    expect(again.map((s) => s.outcome)).toEqual(['already_gone', 'already_gone']);

    expect(
      await removeIncidentSubscriptions({
        incidents: null,
        accountId: account.accountId,
        connectorUrl: CONNECTOR,
        stored,
      }),
    ).toMatchObject([{ outcome: 'skipped' }]);
  });
});
