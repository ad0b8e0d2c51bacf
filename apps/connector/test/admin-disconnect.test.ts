// "Disconnect" on the admin page, over real HTTP against the composed connector and both
// sandboxes: the narrowed token cannot remove setup's objects, so Zendesk must authorise the
// removal first (an admin of the same account, in the browser signed in to the page); then the
// disconnect removes what setup created, revokes the tokens, deletes the account with its data,
// answers what it removed and ends the session. An account found gone is shown on its admin page
// and in /healthz's operator details.
import { DEMO_API_KEY, DEMO_PARENT_CLIENT_ID } from '@incident-desk/incident-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DisconnectResult } from '@incident-desk/admin-contract';
import { connectWithClientCredentials } from '../src/accounts/client-credentials';
import { markReauthorizationRequired } from '../src/accounts/credential-store';
import { incidentSubscriptionDescription } from '../src/setup/ensure-incident-subscriptions';
import {
  cookiesSet,
  followCallback,
  rememberStateCookie,
  submitApproval,
} from './accounts-harness';
import { CLIENT, startAdminHarness, type AdminHarness, type SignedIn } from './admin-harness';
import { eventually } from './support/eventually';
import { backends } from './support/test-database';

describe.each(backends)('disconnecting an account from the admin page (%s)', (backend) => {
  let h: AdminHarness;
  let acme: { adminId: number; agentId: number };
  let globex: { adminId: number; agentId: number };
  let acmeId: string;
  let globexId: string;
  let acmeSession: SignedIn;
  let globexSession: SignedIn;

  const overview = async (session: SignedIn) =>
    (await h.api(session, 'GET', '/admin/api/overview')).body as {
      disconnection: { reason: string; since: string; detail: string | null } | null;
      disconnect: { canRemoveNow: boolean };
    };
  const zendeskState = (subdomain: string) => h.zendeskSandbox.state.account(subdomain)!;
  const liveTokens = (subdomain: string) =>
    h.zendeskSandbox.state.tokens.filter(
      (t) => t.subdomain === subdomain && t.client_identifier === CLIENT.identifier && !t.revoked,
    );
  const subscriptionsOf = async (accountId: string) => {
    const response = await fetch(`${h.incidentUrl}/v1/webhooks`, {
      headers: { 'x-api-key': DEMO_API_KEY },
    });
    const body = (await response.json()) as { data: { description?: string }[] };
    return body.data.filter((s) => s.description === incidentSubscriptionDescription(accountId));
  };

  /** The admin page's "Authorise with Zendesk" link, followed as the browser does. */
  async function authorizeRemoval(session: SignedIn, approverId: number, cookies?: string[]) {
    const start = await fetch(`${h.connectorUrl}/admin/disconnect/authorize`, {
      headers: { cookie: session.cookie },
      redirect: 'manual',
    });
    expect(start.status).toBe(302);
    const authorizeUrl = rememberStateCookie(start);
    expect(authorizeUrl.searchParams.get('scope')).toBe('read write');
    const page = await (await fetch(authorizeUrl)).text();
    const endpoints = { connectorUrl: h.connectorUrl, sandboxUrl: h.sandboxUrl };
    const callbackUrl = await submitApproval(endpoints, page, 'allow', approverId);
    return followCallback(callbackUrl, {
      redirect: 'manual',
      cookies: cookies ?? [session.marker!],
    });
  }

  beforeAll(async () => {
    h = await startAdminHarness(backend);
    ({ users: acme, accountId: acmeId, session: acmeSession } = await h.installAndSignIn('acme'));
    ({
      users: globex,
      accountId: globexId,
      session: globexSession,
    } = await h.installAndSignIn('globex'));
    const saved = await h.api(acmeSession, 'PUT', '/admin/api/incident-connection', {
      apiKey: DEMO_API_KEY,
      clientId: DEMO_PARENT_CLIENT_ID,
    });
    expect(saved.status).toBe(200);
    expect((await h.api(acmeSession, 'POST', '/admin/api/setup/rerun')).status).toBe(202);
    await eventually('acme’s setup', async () => {
      const row = await h.connector.db.prisma.accountConfiguration.findUniqueOrThrow({
        where: { accountId: acmeId },
      });
      return row.setupState === 'succeeded' ? row : undefined;
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('needs Zendesk to authorise the removal first: the stored token was narrowed after setup', async () => {
    expect((await overview(acmeSession)).disconnect).toEqual({ canRemoveNow: false });
    const refused = await h.api(acmeSession, 'POST', '/admin/api/disconnect', {
      deleteTicketFields: false,
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      error: { code: 'authorization_needed' },
      authorizeUrl: '/admin/disconnect/authorize',
    });
    // nothing changed
    expect((await overview(acmeSession)).disconnection).toBeNull();
    expect(zendeskState('acme').triggers.size).toBe(6);
    const bad = await h.api(acmeSession, 'POST', '/admin/api/disconnect', { fields: 'all' });
    expect(bad.status).toBe(400);
  });

  it('takes the removal’s authorisation only from an admin of the account, in the browser signed in to its page', async () => {
    const agent = await authorizeRemoval(acmeSession, acme.agentId);
    expect(agent.status).toBe(403);
    expect(await agent.text()).toContain('Only a Zendesk admin');
    // the callback in another browser (no marker of acme's session)
    const elsewhere = await authorizeRemoval(acmeSession, acme.adminId, [globexSession.marker!]);
    expect(elsewhere.status).toBe(403);
    expect((await overview(acmeSession)).disconnect.canRemoveNow).toBe(false);
    // refused tokens are revoked at once
    const removalTokens = h.zendeskSandbox.state.tokens.filter(
      (t) => t.subdomain === 'acme' && t.scopes.join(' ') === 'read write' && !t.revoked,
    );
    expect(removalTokens).toEqual([]);

    const granted = await authorizeRemoval(acmeSession, acme.adminId);
    expect(granted.status).toBe(303);
    expect(granted.headers.get('location')).toBe('/admin/?disconnect=authorized');
    expect((await overview(acmeSession)).disconnect.canRemoveNow).toBe(true);
    const row = await h.connector.db.prisma.zendeskCredential.findUniqueOrThrow({
      where: { accountId: acmeId },
    });
    // kept apart from the credential, which keeps its narrow scopes
    expect(row.sealedRemovalToken).not.toBeNull();
    expect(row.scope).toBe('tickets:read tickets:write users:read apps:read');
  });

  it('removes what setup created, revokes the tokens, deletes the account and its data, and says so', async () => {
    const fields = await h.connector.db.prisma.accountConfiguration.findUniqueOrThrow({
      where: { accountId: acmeId },
    });
    // a ticket holding a Threat URL: that field stays (its values would go with it)
    const agentToken = h.zendeskSandbox.issueToken('acme', acme.agentId, ['read', 'write']);
    const ticket = await fetch(`${h.sandboxUrl}/_z/acme/api/v2/tickets.json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agentToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        ticket: {
          subject: 'phishing',
          comment: { body: 'https://evil.example' },
          custom_fields: [{ id: Number(fields.threatFieldId), value: 'https://evil.example' }],
        },
      }),
    });
    expect(ticket.status).toBe(201);
    expect(await subscriptionsOf(acmeId)).toHaveLength(1);

    const answer = await fetch(`${h.connectorUrl}/admin/api/disconnect`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: acmeSession.cookie,
        'x-csrf-token': acmeSession.csrf,
      },
      body: JSON.stringify({ deleteTicketFields: false }),
    });
    expect(answer.status).toBe(200);
    // the session ends with the account
    expect(answer.headers.getSetCookie().some((c) => /incident-desk-admin=;/.test(c))).toBe(true);
    expect(cookiesSet(answer)).toEqual([]);
    const result = (await answer.json()) as DisconnectResult;
    expect(result.ok).toBe(true);
    const lines = result.steps.map((s) => `${s.item} ${s.target}: ${s.outcome}`);
    expect(lines).toEqual(
      expect.arrayContaining([
        'view Takedowns waiting for approval: removed',
        'view Incidents needing your action: removed',
        `zendesk_webhook incident-desk connector (${acmeId}): removed`,
        'ticket_field Threat URL: kept',
        'ticket_field Incident ID: removed',
        'ticket_field Incident Status: removed',
        `incident_subscription ${DEMO_PARENT_CLIENT_ID}: removed`,
        'oauth_token the removal authorization: removed',
        'oauth_token the connector’s Zendesk token: removed',
        'account_data the connector’s records of this account: removed',
      ]),
    );
    expect(
      result.steps.filter((s) => s.item === 'trigger' && s.outcome === 'removed'),
    ).toHaveLength(6);

    const state = zendeskState('acme');
    expect([state.views.size, state.triggers.size, state.webhooks.size]).toEqual([0, 0, 0]);
    expect([...state.ticketFields.keys()]).toEqual([Number(fields.threatFieldId)]);
    expect(liveTokens('acme')).toEqual([]);
    expect(await subscriptionsOf(acmeId)).toEqual([]);
    const db = h.connector.db.prisma;
    expect(await db.account.findUnique({ where: { id: acmeId } })).toBeNull();
    expect(await db.zendeskCredential.count({ where: { accountId: acmeId } })).toBe(0);
    expect(await db.accountConfiguration.count({ where: { accountId: acmeId } })).toBe(0);
    expect(await db.adminSession.count({ where: { accountId: acmeId } })).toBe(0);
    expect((await h.api(acmeSession, 'GET', '/admin/api/overview')).status).toBe(401);

    // globex is untouched: its session, its token, its account
    expect((await h.api(globexSession, 'GET', '/admin/api/overview')).status).toBe(200);
    expect(liveTokens('globex').length).toBeGreaterThan(0);
    expect(await db.account.findUnique({ where: { id: globexId } })).not.toBeNull();

    // signing in again: the account is no longer installed; /install starts afresh
    const again = await followCallback(await h.signInCallback('acme', acme.adminId));
    expect(again.status).toBe(403);
    expect(await again.text()).toContain('not installed');
  });

  it('a client-credentials account removes with a token of its own client: no authorisation asked', async () => {
    const initech = await h.createAccount('initech');
    const { accountId } = await connectWithClientCredentials({
      db: h.connector.db,
      secretBox: h.connector.secretBox,
      oauth: h.config.oauth,
      subdomain: 'initech',
    });
    const session = await h.signIn('initech', initech.adminId);
    expect((await overview(session)).disconnect.canRemoveNow).toBe(true);
    const answer = await h.api(session, 'POST', '/admin/api/disconnect', {
      deleteTicketFields: true,
    });
    expect(answer.status).toBe(200);
    const result = answer.body as unknown as DisconnectResult;
    expect(result.steps.filter((s) => s.item === 'oauth_token').map((s) => s.outcome)).toEqual([
      'removed',
      'removed',
    ]);
    expect(liveTokens('initech')).toEqual([]);
    expect(await h.connector.db.prisma.account.findUnique({ where: { id: accountId } })).toBeNull();
  });

  it('an account found gone is shown as disconnected on its page and in /healthz’s operator details', async () => {
    await markReauthorizationRequired(
      h.connector.db,
      globexId,
      'Zendesk refused the refresh token (invalid_grant)',
      new Date(),
    );
    const shown = await overview(globexSession);
    expect(shown.disconnection).toMatchObject({
      reason: 'authorization_lost',
      detail: expect.stringContaining('invalid_grant'),
    });
    const health = (await (await fetch(`${h.connectorUrl}/healthz`)).json()) as {
      accounts: { disconnected: { count: number; accounts: unknown[] } };
    };
    expect(health.accounts.disconnected).toEqual({
      count: 1,
      accounts: [
        { subdomain: 'globex', reason: 'authorization_lost', since: shown.disconnection!.since },
      ],
      notListed: 0,
    });
    // an admin's new install makes it act again, and it leaves the list
    expect((await h.install('globex', globex.adminId)).status).toBe(303);
    const after = (await (await fetch(`${h.connectorUrl}/healthz`)).json()) as typeof health;
    expect(after.accounts.disconnected.count).toBe(0);
  });
});
