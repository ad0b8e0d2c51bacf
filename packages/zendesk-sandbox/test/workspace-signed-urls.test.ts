// signedUrls as Zendesk does it: an RSA key per app, the first request of the location a form POST
// into the app's iframe carrying an RS256 ZAF JWT, the public key at
// /api/v2/apps/{app_id}/public_key.pem, key rotation through the control API; and manifests a
// real account refuses refused here too.
import { createPublicKey } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decodeJwt, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createZendeskSandbox,
  seedDemo,
  type ListeningSandbox,
  type DemoSeed,
  type ZendeskSandbox,
} from '../src/index';

const APP_URL = 'https://connector.example/sidebar/app/assets/iframe.html';

async function appFolder(manifest: Record<string, unknown>) {
  const dir = await mkdtemp(path.join(tmpdir(), 'signed-app-'));
  await writeFile(
    path.join(dir, 'manifest.json'),
    JSON.stringify({ name: 'Signed app', frameworkVersion: '2.0', parameters: [], ...manifest }),
  );
  return dir;
}

const sidebarAt = (url: string, signedUrls?: boolean) => ({
  support: { ticket_sidebar: { url, flexible: true, ...(signedUrls ? { signedUrls } : {}) } },
});

let dirs: string[] = [];
let sandbox: ZendeskSandbox;
let server: ListeningSandbox;
let demo: DemoSeed;

async function sandboxWith(manifest: Record<string, unknown>) {
  const dir = await appFolder(manifest);
  dirs.push(dir);
  const created = createZendeskSandbox({ workspace: { app: { dir } } });
  const seed = seedDemo(created);
  return { created, seed, listening: await created.listen(0) };
}

beforeAll(async () => {
  const started = await sandboxWith({ location: sidebarAt(APP_URL, true) });
  sandbox = started.created;
  server = started.listening;
  demo = started.seed;
});

afterAll(async () => {
  await server?.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  dirs = [];
});

function signedFormOf(html: string): { action: string; token: string } | null {
  const form =
    /<form id="zaf-signed-form" method="post" action="([^"]+)" target="zaf-app-frame" hidden><input type="hidden" name="token" value="([^"]+)"><\/form>/.exec(
      html,
    );
  return form ? { action: form[1]!.replace(/&amp;/g, '&'), token: form[2]! } : null;
}

async function ticketPage(as: number) {
  const res = await fetch(`${server.url}/agent/tickets/${demo.ticketIds[0]}?as=${as}`);
  return { res, html: await res.text() };
}

async function publicKey(token: string) {
  const res = await fetch(`${server.url}/_z/demo/api/v2/apps/1/public_key.pem`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: res.status, pem: await res.text() };
}

describe('a signedUrls location', () => {
  it('is POSTed into the iframe with a ZAF JWT the app key signs, origin and app_guid in the URL', async () => {
    const { res, html } = await ticketPage(demo.agentIds[0]);
    expect(res.status).toBe(200);
    expect(html).toContain('<iframe id="zaf-app-frame" name="zaf-app-frame" title="App"></iframe>');
    const form = signedFormOf(html);
    const action = new URL(form!.action);
    expect(`${action.origin}${action.pathname}`).toBe(APP_URL);
    expect(action.searchParams.get('origin')).toBe(server.url);
    expect(action.searchParams.get('app_guid')).toMatch(/^[0-9a-f-]{36}$/);
    // the signed post into the app's frame, and the ticket form to the page itself
    expect(res.headers.get('content-security-policy')).toContain(
      "form-action 'self' https://connector.example",
    );

    const agentToken = sandbox.issueToken('demo', demo.agentIds[0], ['read']);
    const { status, pem } = await publicKey(agentToken);
    expect(status).toBe(200);
    const { payload } = await jwtVerify(form!.token, createPublicKey(pem), {
      algorithms: ['RS256'],
    });
    const installations = (await (
      await fetch(`${server.url}/_z/demo/api/v2/apps/installations.json`, {
        headers: { authorization: `Bearer ${agentToken}` },
      })
    ).json()) as { installations: { id: number; app_id: number }[] };
    expect(installations.installations).toEqual([
      expect.objectContaining({ app_id: 1, id: expect.any(Number) }),
    ]);
    const installationId = installations.installations[0]!.id;
    expect(payload).toMatchObject({
      iss: 'demo.zendesk.com',
      aud: `https://demo.zendesk.com/api/v2/apps/installations/${installationId}.json`,
      sub: `https://demo.zendesk.com/api/v2/users/${demo.agentIds[0]}.json`,
    });
    expect(payload.exp! - payload.iat!).toBe(300);
  });

  it('names the user who opened the page, and another account gets its own installation', async () => {
    const token = signedFormOf((await ticketPage(demo.agentIds[1])).html)!.token;
    expect(decodeJwt(token).sub).toBe(
      `https://demo.zendesk.com/api/v2/users/${demo.agentIds[1]}.json`,
    );
    const acme = seedDemo(sandbox, 'acme');
    const acmePage = await (
      await fetch(`${server.url}/_z/acme/agent/tickets/${acme.ticketIds[0]}`)
    ).text();
    const acmeClaims = decodeJwt(signedFormOf(acmePage)!.token);
    expect(acmeClaims.iss).toBe('acme.zendesk.com');
    expect(acmeClaims.aud).not.toBe(decodeJwt(token).aud);
  });

  it('publishes a new key after a rotation: earlier tokens no longer verify', async () => {
    const before = signedFormOf((await ticketPage(demo.agentIds[0])).html)!.token;
    const rotated = await fetch(`${server.url}/_sandbox/apps/1/rotate-key`, { method: 'POST' });
    expect(rotated.status).toBe(200);
    const after = signedFormOf((await ticketPage(demo.agentIds[0])).html)!.token;
    const { pem } = await publicKey(sandbox.issueToken('demo', demo.adminId, ['apps:read']));
    const key = createPublicKey(pem);
    await expect(jwtVerify(after, key)).resolves.toBeTruthy();
    await expect(jwtVerify(before, key)).rejects.toThrow();
  });

  it('keeps the public key behind the Apps API scope', async () => {
    const { status } = await publicKey(sandbox.issueToken('demo', demo.adminId, ['tickets:read']));
    expect(status).toBe(403);
  });
});

describe('manifests a real account refuses', () => {
  it.each([
    [
      'signedUrls on a location Zendesk serves itself',
      { location: sidebarAt('assets/iframe.html', true) },
      /signedUrls needs an absolute location URL/,
    ],
    [
      'a hosted location over plain HTTP',
      { location: sidebarAt('http://connector.example/app.html') },
      /must be an https URL/,
    ],
    [
      'a domainWhitelist entry that is a URL',
      { location: sidebarAt(APP_URL, true), domainWhitelist: ['https://api.example'] },
      /domainWhitelist entry/,
    ],
  ])('%s', async (_name, manifest, message) => {
    const started = await sandboxWith(manifest);
    try {
      const html = await (
        await fetch(`${started.listening.url}/agent/tickets/${started.seed.ticketIds[0]}`)
      ).text();
      expect(html).toMatch(message);
      expect(html).not.toContain('id="zaf-app-frame"');
    } finally {
      await started.listening.close();
    }
  });
});
