import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { APIUserAbortError, RateLimitError } from '@incident-desk/incident-api';
import { ZendeskAbortError, ZendeskForbiddenError } from '@incident-desk/zendesk-api';
import { AccountUnavailableError } from '../src/accounts/account-context';
import {
  loadSetupExisting,
  saveAccountSettings,
  saveIncidentConnection,
  saveSetupResult,
} from '../src/accounts/account-configuration';
import { createAccountContextProvider } from '../src/accounts/account-context-provider';
import { connectWithClientCredentials } from '../src/accounts/client-credentials';
import {
  findOrCreateAccount,
  getConnectionStatus,
  markReauthorizationRequired,
  storeCredential,
} from '../src/accounts/credential-store';
import {
  createIncidentSubscriptionDirectory,
  createZendeskWebhookDirectory,
} from '../src/accounts/webhook-secret-directories';
import { install, startAccountsHarness, type AccountsHarness } from './accounts-harness';
import { backends } from './support/test-database';

describe.each(backends)('account contexts from the database on %s', (backend) => {
  let h: AccountsHarness;
  const ids: Record<string, { accountId: string; adminId: number }> = {};

  async function installAndConfigure(subdomain: string) {
    const users = await h.createAccount(subdomain);
    expect((await install(h, subdomain, users.adminId)).status).toBe(200);
    const { id: accountId } = await h.db.prisma.account.findUniqueOrThrow({
      where: { zendeskSubdomain: subdomain },
    });
    await saveIncidentConnection(h.db, h.secretBox, accountId, {
      baseUrl: 'http://127.0.0.1:9/',
      apiKey: `api-key-of-${subdomain}-0123456789`,
      clientId: `client-${subdomain}`,
      subClientIds: [`sub-${subdomain}`],
    });
    await saveSetupResult(h.db, h.secretBox, accountId, {
      fields: { threat: 101, incidentId: 102, status: null },
      zendeskWebhook: { id: `wh-${subdomain}`, secret: `zendesk-webhook-secret-${subdomain}` },
      incidentSubscriptions: [
        {
          clientId: `client-${subdomain}`,
          subscriptionId: `receiver-${subdomain}`,
          webhookId: `svc-${subdomain}`,
          secret: `incident-secret-${subdomain}`,
          testDelivery: 'requested',
        },
      ],
    });
    ids[subdomain] = { accountId, adminId: users.adminId };
    return accountId;
  }

  const provider = () =>
    createAccountContextProvider({
      db: h.db,
      secretBox: h.secretBox,
      config: { oauth: h.oauth, now: h.now, zendeskClientOptions: { retry: false } },
    });

  beforeAll(async () => {
    h = await startAccountsHarness(backend);
    await installAndConfigure('acme');
    await installAndConfigure('globex');
  });
  afterAll(() => h.close());

  it('waits out a short Retry-After in place but fails a long one at once, for the job or the sidebar to answer', async () => {
    // the incident service limiting requests: first 1 s, then 45 s
    const retryAfters = ['1', '45'];
    const seen: number[] = [];
    const server = createServer((_req, res) => {
      seen.push(Date.now());
      res.writeHead(429, { 'retry-after': retryAfters.shift() ?? '45' }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const accountId = ids.acme!.accountId;
      await saveIncidentConnection(h.db, h.secretBox, accountId, {
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
        apiKey: 'api-key-of-acme-0123456789',
        clientId: 'client-acme',
        subClientIds: ['sub-acme'],
      });
      const context = await provider().forAccount(accountId);
      const failure = await context
        .incidents()
        .incidents.retrieve('inc_1')
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(RateLimitError);
      // the 1 s one was waited out and asked again; the 45 s one was not waited for (a wait is
      // always followed by another request)
      expect(seen).toHaveLength(2);
      expect(seen[1]! - seen[0]!).toBeGreaterThanOrEqual(900);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await saveIncidentConnection(h.db, h.secretBox, ids.acme!.accountId, {
        baseUrl: 'http://127.0.0.1:9/',
        apiKey: 'api-key-of-acme-0123456789',
        clientId: 'client-acme',
        subClientIds: ['sub-acme'],
      });
    }
  });

  it('builds each account its own context: Zendesk as that account, its fields and default settings', async () => {
    const contexts = provider();
    for (const subdomain of ['acme', 'globex']) {
      const context = await contexts.forAccount(ids[subdomain]!.accountId);
      expect(context.subdomain).toBe(subdomain);
      expect(context.fields).toEqual({ threat: 101, incidentId: 102, status: null });
      expect(context.settings).toEqual({
        forwardInternalNotes: false,
        solveOnTakedownSuccess: false,
        openTicketsForDetectedIncidents: true,
        newTicketGroupId: null,
      });
      const me = await context.zendesk.users.me();
      expect(me.id).toBe(ids[subdomain]!.adminId);
      expect(me.email).toBe(`admin@${subdomain}.example`);
    }
  });

  it("writes notes in the account's default language, and keeps a write's reference in its audit only with the global read scope", async () => {
    const acme = ids.acme!.accountId;
    const before = await provider().forAccount(acme);
    expect(before.noteLocale).toBe('en');
    // the install token holds `read`: audits can be read back
    expect(before.canReadAudits).toBe(true);
    await saveSetupResult(h.db, h.secretBox, acme, {
      fields: { threat: 101, incidentId: 102, status: null },
      zendeskWebhook: null,
      incidentSubscriptions: [],
      zendeskLocale: 'fr-ca',
    });
    expect((await provider().forAccount(acme)).noteLocale).toBe('fr');
    // a setup that could not read the language keeps the one stored
    await saveSetupResult(h.db, h.secretBox, acme, {
      fields: { threat: 101, incidentId: 102, status: null },
      zendeskWebhook: null,
      incidentSubscriptions: [],
    });
    expect((await provider().forAccount(acme)).noteLocale).toBe('fr');
    // a token narrowed before `read` was asked for
    await h.db.prisma.zendeskCredential.update({
      where: { accountId: acme },
      data: { scope: 'tickets:read tickets:write users:read apps:read' },
    });
    expect((await provider().forAccount(acme)).canReadAudits).toBe(false);
  });

  it("never hands account A another account's incident clients", async () => {
    const acme = await provider().forAccount(ids.acme!.accountId);
    expect(() => acme.incidents()).not.toThrow();
    expect(() => acme.incidents('sub-acme')).not.toThrow();
    expect(() => acme.incidents('client-globex')).toThrow(/not a client of account/);
    expect(() => acme.incidents('sub-globex')).toThrow(/not a client of account/);
  });

  it("a context given a signal ends its clients' requests when it fires (a job that outran its timeout)", async () => {
    await h.control('/faults', {
      path: '/api/v2/users/me.json',
      kind: 'latency',
      latency_ms: 10_000,
      times: 1,
    });
    const controller = new AbortController();
    const context = await provider().forAccount(ids.acme!.accountId, {
      signal: controller.signal,
    });
    const call = context.zendesk.users.me();
    setTimeout(() => controller.abort(new Error('the job outran its timeout')), 100);
    // ended by the signal: the held request would have answered, after 10 s
    await expect(call).rejects.toBeInstanceOf(ZendeskAbortError);
    await expect(context.incidents().usage.retrieve()).rejects.toBeInstanceOf(APIUserAbortError);
    // another job's context is not affected
    const other = await provider().forAccount(ids.acme!.accountId);
    expect((await other.zendesk.users.me()).id).toBe(ids.acme!.adminId);
  });

  it('refuses unknown, unconfigured and re-authorisation-pending accounts', async () => {
    const contexts = provider();
    await expect(contexts.forAccount('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject(
      {
        reason: 'unknown_account',
      },
    );
    await expect(contexts.forAccount("x' OR 1=1 --")).rejects.toMatchObject({
      reason: 'unknown_account',
    });

    const users = await h.createAccount('initech');
    await install(h, 'initech', users.adminId);
    const initech = await h.db.prisma.account.findUniqueOrThrow({
      where: { zendeskSubdomain: 'initech' },
    });
    await expect(contexts.forAccount(initech.id)).rejects.toMatchObject({
      reason: 'not_configured',
    });

    // With the incident service configured but before setup: clients for setup, no context yet.
    await saveIncidentConnection(h.db, h.secretBox, initech.id, {
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'k',
      clientId: 'client-initech',
      subClientIds: ['sub-1', 'sub-2', 'client-initech'],
    });
    await expect(contexts.forAccount(initech.id)).rejects.toMatchObject({
      reason: 'not_configured',
    });
    const clients = await contexts.clientsFor(initech.id);
    expect(clients.incidentClientIds).toEqual(['client-initech', 'sub-1', 'sub-2']);
    expect((await clients.zendesk.users.me()).id).toBe(users.adminId);

    await markReauthorizationRequired(h.db, initech.id, 'test', new Date(h.now()));
    const failure = await contexts.forAccount(initech.id).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AccountUnavailableError);
    expect(failure).toMatchObject({ reason: 'reauthorization_required' });
  });

  it('settings are saved per account', async () => {
    await saveAccountSettings(h.db, ids.acme!.accountId, {
      forwardInternalNotes: true,
      newTicketGroupId: 360001234567,
    });
    await expect(
      saveAccountSettings(h.db, ids.acme!.accountId, { newTicketGroupId: -1 }),
    ).rejects.toThrow();
    const contexts = provider();
    const acme = await contexts.forAccount(ids.acme!.accountId);
    const globex = await contexts.forAccount(ids.globex!.accountId);
    expect(acme.settings).toMatchObject({
      forwardInternalNotes: true,
      newTicketGroupId: 360001234567,
    });
    expect(globex.settings).toMatchObject({ forwardInternalNotes: false, newTicketGroupId: null });
  });

  it('webhook secrets are found only for their own account and are sealed at rest', async () => {
    const incident = createIncidentSubscriptionDirectory(h.db, h.secretBox);
    expect(await incident.find('receiver-globex')).toEqual({
      accountId: ids.globex!.accountId,
      secrets: ['incident-secret-globex'],
    });
    expect(await incident.find('receiver-nobody')).toBeNull();
    const zendesk = createZendeskWebhookDirectory(h.db, h.secretBox);
    expect(await zendesk.find(ids.acme!.accountId)).toEqual({
      accountId: ids.acme!.accountId,
      secrets: ['zendesk-webhook-secret-acme'],
      // bound by the first verified delivery's X-Zendesk-Account-Id; none has arrived yet
      zendeskAccountId: null,
    });
    expect(await zendesk.find('not-an-account')).toBeNull();

    const existing = await loadSetupExisting(h.db, h.secretBox, ids.acme!.accountId);
    expect(existing.zendeskWebhookId).toBe('wh-acme');
    expect(existing.incidentSubscriptions).toEqual([
      {
        clientId: 'client-acme',
        subscriptionId: 'receiver-acme',
        webhookId: 'svc-acme',
        secret: 'incident-secret-acme',
      },
    ]);

    const raw = await h.db.prisma.$queryRawUnsafe<{ row: string }[]>(
      `SELECT row_to_json(c)::text AS row FROM account_configuration c
       UNION ALL SELECT row_to_json(s)::text FROM incident_subscription s`,
    );
    const dump = raw.map((r) => r.row).join('\n');
    expect(dump).toContain('receiver-acme'); // the rows are there...
    for (const secret of ['api-key-of-acme', 'zendesk-webhook-secret', 'incident-secret']) {
      expect(dump).not.toContain(secret); // ...but no secret in clear
    }
  });

  it('a 403 naming users:read surfaces as "missing scope: users:read" on the account', async () => {
    // An account authorised without users:read (tokens minted directly, then stored as install does).
    const users = await h.createAccount('narrow');
    const issued = (await h.control('/accounts/narrow/tokens', {
      user_id: users.adminId,
      scopes: 'tickets:read tickets:write',
      client_id: h.oauth.clientId,
    })) as { access_token: string; refresh_token: string };
    const accountId = await findOrCreateAccount(h.db, 'narrow');
    await storeCredential(h.db, h.secretBox, {
      accountId,
      grant: 'authorization_code',
      clientId: h.oauth.clientId,
      tokens: {
        accessToken: issued.access_token,
        refreshToken: issued.refresh_token,
        scope: 'tickets:read tickets:write',
        accessExpiresAt: new Date(h.now() + 3_600_000),
        refreshExpiresAt: new Date(h.now() + 86_400_000),
      },
    });
    await saveIncidentConnection(h.db, h.secretBox, accountId, {
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'k',
      clientId: 'c',
    });
    await saveSetupResult(h.db, h.secretBox, accountId, {
      fields: { threat: 1, incidentId: 2, status: 3 },
      zendeskWebhook: null,
      incidentSubscriptions: [],
    });
    const context = await provider().forAccount(accountId);
    await expect(context.zendesk.users.me()).rejects.toBeInstanceOf(ZendeskForbiddenError);
    const status = await getConnectionStatus(h.db, accountId);
    expect(status.lastError).toBe('missing scope: users:read');
    expect(status.state).toBe('active');
  });

  it('client credentials: one account with a local confidential client, renewed before expiry', async () => {
    await h.createAccount('solo');
    await h.control('/oauth/clients', {
      identifier: 'solo_local',
      secret: 'solo-local-secret',
      redirect_uris: [],
      subdomain: 'solo',
    });
    const oauth = { ...h.oauth, clientId: 'solo_local', clientSecret: 'solo-local-secret' };
    const { accountId, scope } = await connectWithClientCredentials({
      db: h.db,
      secretBox: h.secretBox,
      oauth,
      subdomain: 'solo',
      now: h.now,
    });
    expect(scope.split(' ').sort()).toEqual([
      'apps:read',
      'tickets:read',
      'tickets:write',
      'users:read',
    ]);
    await saveIncidentConnection(h.db, h.secretBox, accountId, {
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'k',
      clientId: 'c',
    });
    await saveSetupResult(h.db, h.secretBox, accountId, {
      fields: { threat: 1, incidentId: 2, status: null },
      zendeskWebhook: null,
      incidentSubscriptions: [],
    });
    const contexts = createAccountContextProvider({
      db: h.db,
      secretBox: h.secretBox,
      config: { oauth, now: h.now, fetch: h.fetch },
    });
    const before = (await h.db.prisma.zendeskCredential.findUniqueOrThrow({ where: { accountId } }))
      .sealedAccessToken;
    expect((await (await contexts.forAccount(accountId)).zendesk.users.me()).role).toBe('admin');
    expect((await getConnectionStatus(h.db, accountId)).refreshExpiresAt).toBeNull();

    h.clock.now += 86_400_000 - 60_000;
    expect((await (await contexts.forAccount(accountId)).zendesk.users.me()).role).toBe('admin');
    expect(h.tokenRequests.filter((r) => r.subdomain === 'solo')).toEqual([
      { grant: 'client_credentials', subdomain: 'solo' },
    ]);
    const after = (await h.db.prisma.zendeskCredential.findUniqueOrThrow({ where: { accountId } }))
      .sealedAccessToken;
    expect(after).not.toBe(before);
  });
});
