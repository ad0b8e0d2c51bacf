// An installation is bound to Zendesk's account, not only to its subdomain. Webhook
// deliveries bind and then must match X-Zendesk-Account-Id; a subdomain released and registered
// again by another Zendesk account can neither re-install over the old installation nor sign in to
// its admin page.
import { DEMO_API_KEY, DEMO_PARENT_CLIENT_ID } from '@incident-desk/incident-sandbox';
import { signZendeskWebhook } from '@incident-desk/zendesk-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretBinding } from '../src/secrets/secret-bindings';
import { followCallback } from './accounts-harness';
import { startAdminHarness, type AdminHarness } from './admin-harness';
import { eventually } from './support/eventually';
import { backends } from './support/test-database';

describe.each(backends)('installations bound to the Zendesk account (%s)', (backend) => {
  let h: AdminHarness;
  let acme: { adminId: number; agentId: number };
  let globex: { adminId: number; agentId: number };
  let acmeId: string;
  let zendeskAccountIdOfAcme: number;

  const sandboxAccountId = async (subdomain: string) => {
    const list = (await (await fetch(`${h.sandboxUrl}/_sandbox/accounts`)).json()) as {
      accounts: { id: number; subdomain: string }[];
    };
    return list.accounts.find((account) => account.subdomain === subdomain)!.id;
  };

  const setupRequestedAt = async () =>
    (
      await h.connector.db.prisma.accountConfiguration.findUniqueOrThrow({
        where: { accountId: acmeId },
      })
    ).setupRequestedAt?.getTime() ?? 0;

  const deliver = async (headers: Record<string, string>) => {
    const config = await h.connector.db.prisma.accountConfiguration.findUniqueOrThrow({
      where: { accountId: acmeId },
    });
    const secret = await h.connector.secretBox.open(
      config.sealedZendeskWebhookSecret!,
      secretBinding.zendeskWebhookSecret(acmeId),
    );
    const rawBody = JSON.stringify({
      ticketId: 4242,
      kind: 'comment',
      updatedAt: new Date().toISOString(),
    });
    const signed = signZendeskWebhook({ secret, rawBody });
    const response = await fetch(`${h.connectorUrl}/ticketing/webhook?account=${acmeId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signed.headers, ...headers },
      body: rawBody,
    });
    return {
      status: response.status,
      body: (await response.json()) as { error?: { code: string } },
    };
  };

  beforeAll(async () => {
    h = await startAdminHarness(backend);
    acme = await h.createAccount('acme');
    globex = await h.createAccount('globex');
    expect((await h.install('acme', acme.adminId)).status).toBe(303);
    expect((await h.install('globex', globex.adminId)).status).toBe(303);
    acmeId = await h.accountId('acme');
    zendeskAccountIdOfAcme = await sandboxAccountId('acme');
    // setup (with an incident connection) creates the installation's webhook
    const session = await h.signIn('acme', acme.adminId);
    const saved = await h.api(session, 'PUT', '/admin/api/incident-connection', {
      apiKey: DEMO_API_KEY,
      clientId: DEMO_PARENT_CLIENT_ID,
    });
    expect(saved.status).toBe(200);
    expect((await h.api(session, 'POST', '/admin/api/setup/rerun')).status).toBe(202);
    // setup creates the webhook, asks Zendesk to test it, then narrows the token: let it end
    await eventually('acme’s setup', async () => {
      const config = await h.connector.db.prisma.accountConfiguration.findUnique({
        where: { accountId: acmeId },
      });
      return config?.zendeskWebhookId && config.setupState === 'succeeded' ? true : undefined;
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('the first signed delivery (setup’s webhook test) binds the account id; later ones must carry the same', async () => {
    // setup asked Zendesk to test its webhook: that signed delivery named the account first
    expect(
      (await h.connector.db.prisma.account.findUniqueOrThrow({ where: { id: acmeId } }))
        .zendeskAccountId,
    ).toBe(BigInt(zendeskAccountIdOfAcme));
    const first = await deliver({ 'x-zendesk-account-id': String(zendeskAccountIdOfAcme) });
    expect(first.status).toBe(200);
    expect(
      (await h.connector.db.prisma.account.findUniqueOrThrow({ where: { id: acmeId } }))
        .zendeskAccountId,
    ).toBe(BigInt(zendeskAccountIdOfAcme));

    const other = await deliver({ 'x-zendesk-account-id': String(zendeskAccountIdOfAcme + 1000) });
    expect(other.status).toBe(403);
    expect(other.body.error?.code).toBe('account_mismatch');
    const none = await deliver({});
    expect(none.status).toBe(400);
    expect(none.body.error?.code).toBe('missing_account_id');
    const junk = await deliver({ 'x-zendesk-account-id': '12x' });
    expect(junk.status).toBe(400);
    expect((await deliver({ 'x-zendesk-account-id': String(zendeskAccountIdOfAcme) })).status).toBe(
      200,
    );
  });

  it('an account id bound to one installation is refused for another', async () => {
    const globexId = await h.accountId('globex');
    const directory = await import('../src/accounts/webhook-secret-directories');
    const zendesk = directory.createZendeskWebhookDirectory(h.connector.db, h.connector.secretBox);
    expect(await zendesk.bindZendeskAccount!(globexId, BigInt(zendeskAccountIdOfAcme))).toBe(false);
    expect(
      (await h.connector.db.prisma.account.findUniqueOrThrow({ where: { id: globexId } }))
        .zendeskAccountId,
    ).toBeNull();
  });

  it('the same Zendesk account re-installs and signs in as before', async () => {
    const requestedBefore = await setupRequestedAt();
    expect((await h.install('acme', acme.adminId)).status).toBe(303);
    expect((await h.signIn('acme', acme.adminId)).cookie).toMatch(/^incident-desk-admin=/);
    // the re-install queued a setup that ends by narrowing (rotating) the token: let it end, so the
    // next case compares the credential with a settled one
    await eventually('the re-install’s setup has ended', async () => {
      const config = await h.connector.db.prisma.accountConfiguration.findUniqueOrThrow({
        where: { accountId: acmeId },
      });
      const requested = config.setupRequestedAt?.getTime() ?? 0;
      const ended = !['queued', 'running'].includes(config.setupState);
      return requested > requestedBefore && ended ? true : undefined;
    });
  });

  it('a subdomain released and registered again by another account neither re-installs nor signs in', async () => {
    const before = await h.connector.db.prisma.zendeskCredential.findUniqueOrThrow({
      where: { accountId: acmeId },
    });
    const close = await fetch(`${h.sandboxUrl}/_sandbox/accounts/acme`, { method: 'DELETE' });
    expect(close.status).toBe(204);
    const newcomer = await h.createAccount('acme');
    expect(await sandboxAccountId('acme')).not.toBe(zendeskAccountIdOfAcme);

    const reinstall = await h.install('acme', newcomer.adminId);
    expect(reinstall.status).toBe(409);
    expect(reinstall.body).toContain('not the one incident-desk was installed for');
    const after = await h.connector.db.prisma.zendeskCredential.findUniqueOrThrow({
      where: { accountId: acmeId },
    });
    expect(after.sealedAccessToken).toBe(before.sealedAccessToken);
    // (the row may still note that the closed account's token stopped working: not a re-install)
    expect(after.sealedRefreshToken).toBe(before.sealedRefreshToken);
    expect(after.scope).toBe(before.scope);

    const signIn = await followCallback(await h.signInCallback('acme', newcomer.adminId), {
      redirect: 'manual',
    });
    expect(signIn.status).toBe(403);
    expect(await signIn.text()).toContain('not the one incident-desk was installed for');
    expect(signIn.headers.getSetCookie().filter((c) => !c.includes('Max-Age=0'))).toEqual([]);
  });
});
