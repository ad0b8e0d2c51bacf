import { saveIncidentConnection } from '../src/accounts/account-configuration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getConnectionStatus } from '../src/accounts/credential-store';
import { INSTALL_STATE_TTL_MS } from '../src/accounts/install-states';
import { createZendeskTokenProvider } from '../src/accounts/zendesk-token-provider';
import {
  followCallback,
  install,
  startAccountsHarness,
  startInstall,
  submitApproval,
  type AccountsHarness,
} from './accounts-harness';
import { backends } from './support/test-database';
import { secretBinding } from '../src/secrets/secret-bindings';

describe.each(backends)('marketplace install over HTTP on %s', (backend) => {
  let h: AccountsHarness;
  let acme: { adminId: number; agentId: number };

  beforeAll(async () => {
    h = await startAccountsHarness(backend);
    acme = await h.createAccount('acme');
  });
  afterAll(() => h.close());

  it('asks for the subdomain, and rejects one that is not', async () => {
    const form = await fetch(`${h.connectorUrl}/install`);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('name="subdomain"');
    const bad = await fetch(
      `${h.connectorUrl}/install?subdomain=${encodeURIComponent('evil.com/x')}`,
      {
        redirect: 'manual',
      },
    );
    expect(bad.status).toBe(400);
  });

  it('sends the admin to the authorize endpoint with every parameter encoded', async () => {
    const { authorizeUrl, approvalPage } = await startInstall(h, 'ACME');
    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(
      `${h.sandboxUrl}/_z/acme/oauth/authorizations/new`,
    );
    const params = authorizeUrl.searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe(h.oauth.clientId);
    expect(params.get('redirect_uri')).toBe(`${h.connectorUrl}/oauth/callback`);
    // setup's scopes for the first run, plus the steady state's to narrow to afterwards
    expect(params.get('scope')).toBe('read write tickets:read tickets:write users:read apps:read');
    expect(params.get('state')).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(approvalPage).toContain('id="allow"');
  });

  it('completes the dance: tokens sealed with computed expiries, scope, account created', async () => {
    const before = h.tokenRequests.length;
    const result = await install(h, 'acme', acme.adminId);
    expect(result.status).toBe(200);
    expect(result.body).toContain('incident-desk is connected');
    expect(h.tokenRequests.slice(before)).toEqual([
      { grant: 'authorization_code', subdomain: 'acme' },
    ]);

    const account = await h.db.prisma.account.findUniqueOrThrow({
      where: { zendeskSubdomain: 'acme' },
    });
    const status = await getConnectionStatus(h.db, account.id);
    expect(status.state).toBe('active');
    expect(status.grant).toBe('authorization_code');
    expect(status.scope.sort()).toEqual([
      'apps:read',
      'read',
      'tickets:read',
      'tickets:write',
      'users:read',
      'write',
    ]);
    expect(status.clientId).toBe(h.oauth.clientId);
    expect(status.accessExpiresAt?.getTime()).toBe(h.clock.now + 86_400_000);
    expect(status.refreshExpiresAt?.getTime()).toBe(h.clock.now + 7_776_000_000);

    const config = await h.db.prisma.accountConfiguration.findUniqueOrThrow({
      where: { accountId: account.id },
    });
    expect(config.openTicketsForDetectedIncidents).toBe(true);
    expect(config.forwardInternalNotes).toBe(false);

    // The stored token works against Zendesk as the approving admin.
    const provider = createZendeskTokenProvider({
      db: h.db,
      secretBox: h.secretBox,
      oauth: h.oauth,
      accountId: account.id,
      subdomain: 'acme',
      now: h.now,
    });
    const token = await provider.getAccessToken();
    const me = await fetch(`${h.sandboxUrl}/_z/acme/api/v2/users/me.json`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await me.json()) as { user: { id: number } }).user.id).toBe(acme.adminId);

    // Sealed at rest: no token substring in the raw columns, and the key id beside each value.
    const credential = await h.db.prisma.zendeskCredential.findUniqueOrThrow({
      where: { accountId: account.id },
    });
    const refresh = await h.secretBox.open(
      credential.sealedRefreshToken!,
      secretBinding.zendeskRefreshToken(account.id),
    );
    const raw = await h.db.prisma.$queryRawUnsafe<{ row: string }[]>(
      `SELECT row_to_json(c)::text AS row FROM zendesk_credential c WHERE account_id = $1::uuid`,
      account.id,
    );
    expect(raw).toHaveLength(1);
    expect(raw[0]!.row).not.toContain(token);
    expect(raw[0]!.row).not.toContain(refresh);
    expect(raw[0]!.row).not.toContain(token.slice(0, 12));
    expect(h.secretBox.keyIdOf(credential.sealedAccessToken)).toBe('test-1');
  });

  it('shows no sidebar secret: Zendesk signs the sidebar’s pages instead', async () => {
    await h.createAccount('secretco');
    const admin = (
      (await (await fetch(`${h.sandboxUrl}/_sandbox/accounts/secretco/users`)).json()) as {
        users: { id: number; role: string }[];
      }
    ).users.find((user) => user.role === 'admin')!;
    const first = await install(h, 'secretco', admin.id);
    expect(first.status).toBe(200);
    expect(first.body).not.toMatch(/shared.secret/i);
    expect(first.body).not.toContain('<code');
  });

  it('installing again for the same subdomain keeps one account and replaces the tokens', async () => {
    const before = await h.db.prisma.zendeskCredential.findFirstOrThrow({
      where: { account: { zendeskSubdomain: 'acme' } },
    });
    const result = await install(h, 'acme', acme.adminId);
    expect(result.status).toBe(200);
    expect(await h.db.prisma.account.count({ where: { zendeskSubdomain: 'acme' } })).toBe(1);
    const after = await h.db.prisma.zendeskCredential.findFirstOrThrow({
      where: { account: { zendeskSubdomain: 'acme' } },
    });
    expect(after.sealedAccessToken).not.toBe(before.sealedAccessToken);
  });

  it('asks for the incident API key on a first install, and not again once it is saved', async () => {
    const first = await install(h, 'acme', acme.adminId);
    expect(first.body).toContain('to enter the incident API key');
    const account = await h.db.prisma.account.findUniqueOrThrow({
      where: { zendeskSubdomain: 'acme' },
    });
    await saveIncidentConnection(h.db, h.secretBox, account.id, {
      baseUrl: 'http://127.0.0.1:9/',
      apiKey: 'api-key-of-acme-0123456789',
      clientId: 'client-acme',
    });
    const again = await install(h, 'acme', acme.adminId);
    expect(again.body).not.toContain('to enter the incident API key');
    expect(again.body).toContain('the incident API key is already saved');
  });

  it('refuses an install approved by an agent: nothing stored, the token revoked', async () => {
    await h.createAccount('agentco');
    const agent = (
      (await (await fetch(`${h.sandboxUrl}/_sandbox/accounts/agentco/users`)).json()) as {
        users: { id: number; role: string }[];
      }
    ).users.find((user) => user.role === 'agent')!;
    const result = await install(h, 'agentco', agent.id);
    expect(result.status).toBe(403);
    expect(result.body).toContain('Only a Zendesk admin of agentco can install');
    expect(await h.db.prisma.account.count({ where: { zendeskSubdomain: 'agentco' } })).toBe(0);
    const tokens = h.sandboxTokens('agentco');
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.revoked).toBe(true);
  });

  it('rejects a reused state (replay of the callback)', async () => {
    const { callbackUrl } = await install(h, 'acme', acme.adminId);
    const replay = await followCallback(callbackUrl);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain('already used');
  });

  it('rejects an unknown or missing state without calling the token endpoint', async () => {
    const { approvalPage } = await startInstall(h, 'acme');
    const callbackUrl = await submitApproval(h, approvalPage, 'allow', acme.adminId);
    const before = h.tokenRequests.length;
    const forged = new URL(callbackUrl);
    forged.searchParams.set('state', 'forged-state');
    const unknown = await fetch(forged);
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('not started in this browser');
    forged.searchParams.delete('state');
    const missing = await fetch(forged);
    expect(missing.status).toBe(400);
    expect(h.tokenRequests.length).toBe(before);
  });

  it('rejects a state older than 10 minutes', async () => {
    const { approvalPage } = await startInstall(h, 'acme');
    const callbackUrl = await submitApproval(h, approvalPage, 'allow', acme.adminId);
    h.clock.now += INSTALL_STATE_TTL_MS + 1000;
    const late = await followCallback(callbackUrl);
    expect(late.status).toBe(400);
    expect(await late.text()).toContain('longer than 10 minutes');
  });

  it('shows a clear page when the admin denies, and the state cannot be used afterwards', async () => {
    const { approvalPage, authorizeUrl } = await startInstall(h, 'acme');
    const callbackUrl = await submitApproval(h, approvalPage, 'deny', acme.adminId);
    expect(callbackUrl.searchParams.get('error')).toBe('access_denied');
    const denied = await followCallback(callbackUrl);
    expect(denied.status).toBe(403);
    expect(await denied.text()).toContain('access_denied');
    const retry = new URL(`${h.connectorUrl}/oauth/callback`);
    retry.searchParams.set('code', 'whatever');
    retry.searchParams.set('state', authorizeUrl.searchParams.get('state')!);
    expect((await followCallback(retry)).status).toBe(400);
  });

  it('rejects a code Zendesk refuses (already used) with a clear page', async () => {
    const { approvalPage } = await startInstall(h, 'acme');
    const callbackUrl = await submitApproval(h, approvalPage, 'allow', acme.adminId);
    // Spend the code first, as an attacker holding it would.
    await fetch(`${h.sandboxUrl}/_z/acme/oauth/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'authorization_code',
        code: callbackUrl.searchParams.get('code'),
        client_id: h.oauth.clientId,
        client_secret: h.oauth.clientSecret,
        redirect_uri: h.oauth.redirectUri,
      }),
    });
    const response = await followCallback(callbackUrl);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('invalid_grant');
  });
});
