import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startSandbox, type Running } from './support';

const REDIRECT = 'https://connector.example/oauth/callback';
const GLOBAL = { identifier: 'global_app', secret: 'global-secret', redirect_uris: [REDIRECT] };

function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[match[1] ?? ''] = (match[2] ?? '').replace(/&amp;/g, '&').replace(/&quot;/g, '"');
  }
  return fields;
}

describe('OAuth', () => {
  let run: Running;
  let now = Date.UTC(2026, 10, 1);

  beforeAll(async () => {
    run = await startSandbox({ clock: () => now, globalClients: [GLOBAL] });
    run.sandbox.createAccount('other');
    run.sandbox.createUser('other', {
      name: 'Other Admin',
      email: 'admin@other.example',
      role: 'admin',
    });
  });
  afterAll(() => run.close());

  const authorizeUrl = (subdomain: string, params: Record<string, string>) =>
    `${run.url}/_z/${subdomain}/oauth/authorizations/new?${new URLSearchParams({ response_type: 'code', client_id: GLOBAL.identifier, redirect_uri: REDIRECT, scope: 'read write', state: 'st-1', ...params })}`;

  /** Loads the approval page and clicks a button, as a browser would submit the form. */
  async function decide(
    subdomain: string,
    decision: 'allow' | 'deny',
    params: Record<string, string> = {},
  ): Promise<URL> {
    const page = await fetch(authorizeUrl(subdomain, params));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('id="allow"');
    expect(html).toContain('id="deny"');
    const userId = /<option value="(\d+)"/.exec(html)?.[1] ?? '';
    const form = new URLSearchParams({ ...hiddenFields(html), user_id: userId, decision });
    const answer = await fetch(`${run.url}/_z/${subdomain}/oauth/authorizations`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
    });
    expect(answer.status).toBe(302);
    return new URL(answer.headers.get('location') ?? '');
  }

  const exchange = (subdomain: string, body: Record<string, unknown>) =>
    call(`${run.url}/_z/${subdomain}/oauth/tokens`, {
      body: { client_id: GLOBAL.identifier, client_secret: GLOBAL.secret, ...body },
    });

  async function authorize(subdomain = 'demo', extra: Record<string, unknown> = {}) {
    const redirect = await decide(subdomain, 'allow');
    return exchange(subdomain, {
      grant_type: 'authorization_code',
      code: redirect.searchParams.get('code'),
      redirect_uri: REDIRECT,
      scope: 'read write',
      ...extra,
    });
  }

  it('runs the authorization code flow: code and state to the exact redirect_uri, then tokens with defaults', async () => {
    const redirect = await decide('demo', 'allow');
    expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT);
    expect(redirect.searchParams.get('state')).toBe('st-1');
    const tokens = await exchange('demo', {
      grant_type: 'authorization_code',
      code: redirect.searchParams.get('code'),
      redirect_uri: REDIRECT,
    });
    expect(tokens.status).toBe(200);
    expect(tokens.body).toMatchObject({
      token_type: 'bearer',
      scope: 'read write',
      expires_in: 1800,
      refresh_token_expires_in: 2_592_000,
    });
    const me = await call(run.api('demo', 'users/me.json'), { token: tokens.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body.user.role).not.toBe('end-user');
  });

  it('returns access_denied with the state when the agent clicks Deny', async () => {
    const redirect = await decide('demo', 'deny');
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    expect(redirect.searchParams.get('state')).toBe('st-1');
    expect(redirect.searchParams.get('code')).toBeNull();
  });

  it('refuses an unregistered redirect_uri without redirecting', async () => {
    const page = await fetch(authorizeUrl('demo', { redirect_uri: `${REDIRECT}/evil` }), {
      redirect: 'manual',
    });
    expect(page.status).toBe(400);
  });

  it('accepts a code once, only with the same redirect_uri, and only for 120 seconds', async () => {
    const first = await decide('demo', 'allow');
    const code = first.searchParams.get('code');
    const wrongUri = await exchange('demo', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: 'https://connector.example/other',
    });
    expect(wrongUri.status).toBe(400);
    expect(wrongUri.body.error).toBe('invalid_grant');
    // The failed attempt consumed it (single use).
    const retry = await exchange('demo', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
    });
    expect(retry.body.error).toBe('invalid_grant');

    const second = await decide('demo', 'allow');
    const ok = await exchange('demo', {
      grant_type: 'authorization_code',
      code: second.searchParams.get('code'),
      redirect_uri: REDIRECT,
    });
    expect(ok.status).toBe(200);
    const reused = await exchange('demo', {
      grant_type: 'authorization_code',
      code: second.searchParams.get('code'),
      redirect_uri: REDIRECT,
    });
    expect(reused.status).toBe(400);

    const late = await decide('demo', 'allow');
    now += 121_000;
    const expired = await exchange('demo', {
      grant_type: 'authorization_code',
      code: late.searchParams.get('code'),
      redirect_uri: REDIRECT,
    });
    expect(expired.body.error).toBe('invalid_grant');
  });

  it('rotates refresh tokens: both old tokens stop working and the old refresh token cannot be reused', async () => {
    const first = (await authorize()).body;
    const rotated = await exchange('demo', {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.access_token).not.toBe(first.access_token);
    expect(rotated.body.refresh_token).not.toBe(first.refresh_token);

    const oldAccess = await call(run.api('demo', 'tickets/1.json'), { token: first.access_token });
    expect(oldAccess.status).toBe(401);
    expect(oldAccess.body.error).toBe('invalid_token');
    const reuse = await exchange('demo', {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
    });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    const fresh = await call(run.api('demo', 'tickets/1.json'), {
      token: rotated.body.access_token,
    });
    expect(fresh.status).toBe(200);
  });

  it('enforces expires_in and refresh_token_expires_in bounds and honours values inside them', async () => {
    const tooShort = await authorize('demo', { expires_in: 299 });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.error).toBe('invalid_request');
    const tooLong = await authorize('demo', { refresh_token_expires_in: 7_776_001 });
    expect(tooLong.status).toBe(400);
    const custom = await authorize('demo', {
      expires_in: 86_400,
      refresh_token_expires_in: 7_776_000,
    });
    expect(custom.body).toMatchObject({ expires_in: 86_400, refresh_token_expires_in: 7_776_000 });
  });

  it('answers 401 invalid_token once an access token expires', async () => {
    const tokens = (await authorize('demo', { expires_in: 300 })).body;
    expect(
      (await call(run.api('demo', 'tickets/1.json'), { token: tokens.access_token })).status,
    ).toBe(200);
    now += 301_000;
    const after = await call(run.api('demo', 'tickets/1.json'), { token: tokens.access_token });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
    // The refresh token outlives it.
    const refreshed = await exchange('demo', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    expect(refreshed.status).toBe(200);
  });

  it('enforces scopes: users/me is 403 without users:read, tickets need tickets:read', async () => {
    const ticketsOnly = run.token(run.demo.agentIds[0], ['tickets:read', 'tickets:write']);
    const me = await call(run.api('demo', 'users/me.json'), { token: ticketsOnly });
    expect(me.status).toBe(403);
    expect(me.body.error).toBe('Forbidden');
    expect((await call(run.api('demo', 'tickets/1.json'), { token: ticketsOnly })).status).toBe(
      200,
    );

    const usersOnly = run.token(run.demo.agentIds[0], ['users:read']);
    expect((await call(run.api('demo', 'users/me.json'), { token: usersOnly })).status).toBe(200);
    expect((await call(run.api('demo', 'tickets/1.json'), { token: usersOnly })).status).toBe(403);

    const writeOnly = run.token(run.demo.agentIds[0], ['write']);
    expect((await call(run.api('demo', 'tickets/1.json'), { token: writeOnly })).status).toBe(403);
  });

  it('revokes the current token through the API and any token through the control API', async () => {
    const tokens = (await authorize()).body;
    expect(
      (
        await call(run.api('demo', 'oauth/tokens/current.json'), {
          method: 'DELETE',
          token: tokens.access_token,
        })
      ).status,
    ).toBe(204);
    expect(
      (await call(run.api('demo', 'tickets/1.json'), { token: tokens.access_token })).status,
    ).toBe(401);
    // the token is one grant: revoking its access token ends its refresh token too
    const refreshAfter = await exchange('demo', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    expect(refreshAfter.status).toBe(400);
    expect(refreshAfter.body.error).toBe('invalid_grant');

    const other = (await authorize()).body;
    expect(
      (await call(`${run.url}/_sandbox/tokens/revoke`, { body: { token: other.access_token } }))
        .status,
    ).toBe(200);
    expect(
      (await call(run.api('demo', 'tickets/1.json'), { token: other.access_token })).status,
    ).toBe(401);
    expect(
      (await exchange('demo', { grant_type: 'refresh_token', refresh_token: other.refresh_token }))
        .status,
    ).toBe(400);
  });

  it('revokes an OAuth client’s grant on one account through the control API', async () => {
    const demo = (await authorize('demo')).body;
    const other = (await authorize('other')).body;
    const revoked = await call(`${run.url}/_sandbox/accounts/demo/oauth-grants/revoke`, {
      body: { client_id: GLOBAL.identifier },
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked).toBeGreaterThanOrEqual(1);
    expect(
      (await call(run.api('demo', 'tickets/1.json'), { token: demo.access_token })).status,
    ).toBe(401);
    const refresh = await exchange('demo', {
      grant_type: 'refresh_token',
      refresh_token: demo.refresh_token,
    });
    expect(refresh.status).toBe(400);
    expect(refresh.body.error).toBe('invalid_grant');
    // another account's grant of the same client is untouched
    expect(
      (await call(run.api('other', 'users/me.json'), { token: other.access_token })).status,
    ).toBe(200);
  });

  it('expires a token on demand through the control API', async () => {
    const tokens = (await authorize()).body;
    await call(`${run.url}/_sandbox/tokens/expire`, {
      body: { token: tokens.access_token, which: 'access' },
    });
    expect(
      (await call(run.api('demo', 'tickets/1.json'), { token: tokens.access_token })).status,
    ).toBe(401);
  });

  it('accepts a global client on every account and a local client only on its own', async () => {
    expect((await authorize('other')).status).toBe(200);

    const local = await call(`${run.url}/_sandbox/oauth/clients`, {
      body: {
        identifier: 'demo_local',
        secret: 'local-secret',
        redirect_uris: [REDIRECT],
        subdomain: 'demo',
        owner_user_id: run.demo.agentIds[1],
      },
    });
    expect(local.status).toBe(201);
    const onDemo = await call(`${run.url}/_z/demo/oauth/tokens`, {
      body: {
        grant_type: 'client_credentials',
        client_id: 'demo_local',
        client_secret: 'local-secret',
        scope: 'read',
        expires_in: 86_400,
      },
    });
    expect(onDemo.status).toBe(200);
    expect(onDemo.body.refresh_token).toBeUndefined();
    expect(onDemo.body.expires_in).toBe(86_400);
    // client_credentials tokens act as the client's creator.
    expect(
      (await call(run.api('demo', 'users/me.json'), { token: onDemo.body.access_token })).body.user
        .id,
    ).toBe(run.demo.agentIds[1]);
    const onOther = await call(`${run.url}/_z/other/oauth/tokens`, {
      body: {
        grant_type: 'client_credentials',
        client_id: 'demo_local',
        client_secret: 'local-secret',
        scope: 'read',
      },
    });
    expect(onOther.status).toBe(401);
    expect(onOther.body.error).toBe('invalid_client');
    const page = await fetch(
      `${run.url}/_z/other/oauth/authorizations/new?${new URLSearchParams({ response_type: 'code', client_id: 'demo_local', redirect_uri: REDIRECT, scope: 'read' })}`,
      { redirect: 'manual' },
    );
    expect(page.status).toBe(400);
  });

  it('never lets a token of one account act on another', async () => {
    const demoToken = (await authorize('demo')).body.access_token;
    const cross = await call(run.api('other', 'users/me.json'), { token: demoToken });
    expect(cross.status).toBe(401);
    expect(cross.body.error).toBe('invalid_token');
  });

  it('requires PKCE from a public client and checks the verifier', async () => {
    await call(`${run.url}/_sandbox/oauth/clients`, {
      body: { identifier: 'spa', kind: 'public', redirect_uris: [REDIRECT], subdomain: 'demo' },
    });
    const verifier = 'a-long-random-verifier-0123456789-abcdefghijklmnop';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const withoutPkce = await fetch(authorizeUrl('demo', { client_id: 'spa' }), {
      redirect: 'manual',
    });
    expect(new URL(withoutPkce.headers.get('location') ?? '').searchParams.get('error')).toBe(
      'invalid_request',
    );
    const codeFor = async () => {
      const redirect = await decide('demo', 'allow', {
        client_id: 'spa',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      return redirect.searchParams.get('code');
    };
    const wrong = await call(`${run.url}/_z/demo/oauth/tokens`, {
      body: {
        grant_type: 'authorization_code',
        client_id: 'spa',
        code: await codeFor(),
        redirect_uri: REDIRECT,
        code_verifier: 'wrong',
      },
    });
    expect(wrong.body.error).toBe('invalid_grant');
    const right = await call(`${run.url}/_z/demo/oauth/tokens`, {
      body: {
        grant_type: 'authorization_code',
        client_id: 'spa',
        code: await codeFor(),
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      },
    });
    expect(right.status).toBe(200);
  });

  it('rejects a wrong client secret and an unknown grant type', async () => {
    const badSecret = await call(`${run.url}/_z/demo/oauth/tokens`, {
      body: {
        grant_type: 'client_credentials',
        client_id: GLOBAL.identifier,
        client_secret: 'nope',
        scope: 'read',
      },
    });
    expect(badSecret.status).toBe(401);
    const badGrant = await exchange('demo', { grant_type: 'password' });
    expect(badGrant.body.error).toBe('unsupported_grant_type');
  });
});
