import { jwtVerify } from 'jose';
import { rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEchoServer } from './fixtures/workspace/echo-server';
import { FIELD_ID, startFakeSandbox, type FakeSandbox } from './fixtures/workspace/fake-sandbox';
import { hostConfigOf, iframeSrcOf, openHostSession } from './fixtures/workspace/host-page-client';
import { prepareTestApp } from './fixtures/workspace/prepare-test-app';

const SECRET = 'shh-workspace-secret-0f3c9a';

let app: Awaited<ReturnType<typeof prepareTestApp>>;
let echo: Awaited<ReturnType<typeof startEchoServer>>;
let sandbox: FakeSandbox;

beforeAll(async () => {
  app = await prepareTestApp();
  echo = await startEchoServer(SECRET);
  sandbox = await startFakeSandbox({
    app: { dir: app.dir },
    installation: {
      settings: {
        shared_secret: SECRET,
        echo_url: `${echo.url}/echo`,
        field_title: 'Incident reference',
      },
    },
    proxyTimeoutMs: 2000,
  });
});
afterAll(async () => {
  await sandbox?.close();
  await echo?.close();
  await app?.remove();
});

async function openPage(path = '/agent/tickets/1') {
  const res = await fetch(sandbox.url + path);
  const html = await res.text();
  return { res, html };
}

const session = (path = '/agent/tickets/1?as=2') => openHostSession(sandbox.url, path);

describe('the ticket page', () => {
  it('renders the ticket and hosts the app with origin and app_guid in the iframe URL', async () => {
    const { res, html } = await openPage('/agent/tickets/1?as=2');
    expect(res.status).toBe(200);
    expect(html).toContain('Phishing site reported');
    expect(html).toContain('Please take this down.');
    expect(html).toContain('Incident reference');
    expect(html).toContain('INC-1');
    expect(html).toContain('<li class="tag">abuse</li>');
    expect(html).toContain('<p id="workspace-agent">Alan Agent (agent) · demo</p>');
    const src = iframeSrcOf(html);
    expect(src.pathname).toBe('/agent/app/assets/iframe.html');
    // The page is at 127.0.0.1, so the app is served from localhost: another origin, as in Zendesk.
    expect(src.hostname).toBe('localhost');
    expect(src.searchParams.get('origin')).toBe(sandbox.url);
    const config = hostConfigOf(html);
    expect(src.searchParams.get('app_guid')).toBe(config.appGuid);
    expect(config.appOrigin).toBe(src.origin);
    expect(res.headers.get('content-security-policy')).toContain(`frame-src ${src.origin}`);
  });

  it('gives the app metadata and context without secure settings, and never puts a secret in the HTML', async () => {
    const { html } = await openPage('/agent/tickets/1');
    const config = hostConfigOf(html);
    expect(config.metadata).toEqual({
      appId: 1,
      // installed in the account by the workspace, with its own id
      installationId: 900,
      name: 'Workspace protocol test app',
      settings: {
        title: 'Workspace protocol test app',
        greeting: 'hello',
        echo_url: `${echo.url}/echo`,
        field_title: 'Incident reference',
      },
    });
    expect(config.context).toEqual({
      product: 'support',
      location: 'ticket_sidebar',
      ticketId: 1,
      account: { subdomain: 'demo' },
      instanceGuid: config.appGuid,
    });
    expect(html).not.toContain(SECRET);
    expect(html).not.toContain('shared_secret');
  });

  it('serves the app folder: manifest.json and assets', async () => {
    const manifest = await fetch(`${sandbox.url}/agent/app/manifest.json`);
    expect(manifest.status).toBe(200);
    expect(((await manifest.json()) as { name: string }).name).toBe('Workspace protocol test app');
    const asset = await fetch(`${sandbox.url}/agent/app/assets/app.js`);
    expect(asset.status).toBe(200);
    expect(await asset.text()).toContain('ZAFClient.init');
    expect((await fetch(`${sandbox.url}/agent/app/assets/nope.js`)).status).toBe(404);
    expect((await fetch(`${sandbox.url}/agent/app/assets/..%2fmanifest.json`)).status).not.toBe(
      200,
    );
  });

  it('heads the app in the apps panel with its name and the folder’s small logo, served from the page’s origin', async () => {
    const logo = path.join(app.dir, 'assets', 'logo-small.png');
    await writeFile(logo, Buffer.from('89504e470d0a1a0a', 'hex'));
    try {
      const { html } = await openPage('/agent/tickets/1');
      expect(html).toContain(
        '<header class="app-header"><img class="app-logo" src="/agent/app/assets/logo-small.png" alt="">' +
          '<span class="app-name">Workspace protocol test app</span>',
      );
      const served = await fetch(`${sandbox.url}/agent/app/assets/logo-small.png`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
    } finally {
      await rm(logo);
    }
    // without a logo the header shows the name's initial, and no broken image
    const { html } = await openPage('/agent/tickets/1');
    expect(html).toContain(
      '<header class="app-header"><span class="app-logo" aria-hidden="true">W</span>' +
        '<span class="app-name">Workspace protocol test app</span>',
    );
    expect(html).not.toContain('<img');
  });

  it('answers 404 for a missing ticket, and one account never shows another account’s ticket', async () => {
    expect((await openPage('/agent/tickets/999')).res.status).toBe(404);
    expect((await openPage('/agent/tickets/abc')).res.status).toBe(404);
    const other = await openPage('/agent/tickets/1?subdomain=other');
    expect(other.res.status).toBe(200);
    expect(other.html).toContain('Other account secret ticket');
    expect(other.html).not.toContain('Phishing site reported');
    const demo = await openPage('/_z/demo/agent/tickets/1');
    expect(demo.html).toContain('Phishing site reported');
    expect(demo.html).not.toContain('Other account secret ticket');
    expect(
      hostConfigOf((await openPage('/_z/other/agent/tickets/1')).html).context.account,
    ).toEqual({ subdomain: 'other' });
    sandbox.addTicket('other', { id: 77, subject: 'Only in other' });
    expect((await openPage('/agent/tickets/77')).res.status).toBe(404);
  });

  it('refuses end users, unknown users and unknown accounts as the agent', async () => {
    expect((await openPage('/agent/tickets/1?as=3')).res.status).toBe(403);
    expect((await openPage('/agent/tickets/1?as=99')).res.status).toBe(404);
    expect((await openPage('/agent/tickets/1?as=x')).res.status).toBe(400);
    expect((await openPage('/agent/tickets/1?subdomain=nowhere')).res.status).toBe(404);
    expect((await openPage('/agent/tickets/1?subdomain=%3Cb%3E')).res.status).toBe(400);
  });

  it('escapes attacker-controlled subject, comment, tags and field values', async () => {
    sandbox.addTicket(
      'demo',
      {
        id: 5,
        subject: '<script>alert(1)</script>"><img src=x onerror=alert(2)>',
        tags: ['<b>tag</b>'],
        status: '<i>open</i>',
        custom_fields: [{ id: FIELD_ID, value: '</dd><script>x()</script>' }],
      },
      [
        {
          id: 51,
          author_id: 3,
          body: '<iframe src="javascript:alert(3)"></iframe>',
          public: false,
          created_at: 'now',
          attachments: [{ file_name: '<svg onload=x>', content_url: 'javascript:alert(4)' }],
        },
      ],
    );
    const { res, html } = await openPage('/agent/tickets/5');
    expect(res.status).toBe(200);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<b>tag</b>');
    expect(html).not.toContain('<iframe src="javascript');
    expect(html).not.toContain('javascript:alert(4)');
    expect(html).not.toContain('<svg');
    expect(html).toContain(
      '&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;',
    );
    expect(html).toContain('Internal note');
  });

  it('shows why when the app cannot be loaded, and still renders the ticket', async () => {
    const broken = await startFakeSandbox({ app: { dir: '/nonexistent/app' } });
    try {
      const res = await fetch(`${broken.url}/agent/tickets/1`);
      const html = await res.text();
      expect(res.status).toBe(200);
      expect(html).toContain('Phishing site reported');
      expect(html).toContain('The app could not be loaded');
      expect(html).not.toContain('<iframe');
    } finally {
      await broken.close();
    }
  });
});

describe('ZAF get and set', () => {
  it('gets ticket paths, custom fields, currentUser and currentAccount, with an error per unknown path', async () => {
    const s = await session();
    const result = await s.get([
      'ticket.id',
      'ticket.subject',
      'ticket.status',
      'ticket.tags',
      'ticket.requester',
      `ticket.customField:custom_field_${FIELD_ID}`,
      'ticket.customField:custom_field_1',
      'currentUser',
      'currentAccount',
      'ticket.bogus',
      'session.live',
    ]);
    expect(result['ticket.id']).toBe(1);
    expect(result['ticket.subject']).toBe('Phishing site reported');
    expect(result['ticket.status']).toBe('open');
    expect(result['ticket.tags']).toEqual(['abuse']);
    expect(result['ticket.requester']).toMatchObject({
      id: 3,
      name: 'Eve Enduser',
      email: 'eve@demo.test',
    });
    expect(result[`ticket.customField:custom_field_${FIELD_ID}`]).toBe('INC-1');
    expect(result.currentUser).toMatchObject({
      id: 2,
      name: 'Alan Agent',
      email: 'agent@demo.test',
      role: 'agent',
      locale: 'en-US',
      timeZone: { name: 'Copenhagen', ianaName: 'Europe/Copenhagen' },
      groups: [],
    });
    expect(result.currentAccount).toEqual({ subdomain: 'demo' });
    const errors = result.errors as Record<string, { message: string }>;
    expect(Object.keys(errors).sort()).toEqual([
      'ticket.bogus',
      'ticket.customField:custom_field_1',
    ]);
    expect(errors['ticket.bogus']?.message).toContain('ticket.bogus');
    expect('session.live' in result).toBe(false);
    // The API was read as the chosen agent.
    expect(sandbox.apiLog.at(-1)).toMatchObject({ subdomain: 'demo', userId: 2 });
  });

  it('persists set through the Support API and reports bad values per path', async () => {
    sandbox.addTicket('demo', {
      id: 6,
      tags: ['a', 'b'],
      custom_fields: [{ id: FIELD_ID, value: null }],
    });
    const s = await session('/agent/tickets/6?as=1');
    const result = await s.set({
      [`ticket.customField:custom_field_${FIELD_ID}`]: 'INC-77',
      'ticket.tags': ['b', 'c'],
      'ticket.status': 'pending',
      'ticket.nope': 1,
    });
    expect(result[`ticket.customField:custom_field_${FIELD_ID}`]).toBe('INC-77');
    expect(Object.keys(result.errors as object)).toEqual(['ticket.nope']);
    const ticket = sandbox.accounts.get('demo')?.tickets.get(6);
    expect(ticket?.custom_fields).toEqual([{ id: FIELD_ID, value: 'INC-77' }]);
    expect([...(ticket?.tags ?? [])].sort()).toEqual(['b', 'c']);
    expect(ticket?.status).toBe('pending');
    expect(sandbox.apiLog.filter((r) => r.method === 'PUT').at(-1)).toMatchObject({
      path: '/tickets/6.json',
      userId: 1,
    });

    const bad = await s.set({ 'ticket.tags': 'not-a-list', 'ticket.status': 'bogus' });
    expect(Object.keys(bad.errors as object).sort()).toEqual(['ticket.status', 'ticket.tags']);
    const rejected = await s.set({ 'ticket.customField:custom_field_123': 'x' });
    expect(
      (rejected.errors as Record<string, { message: string }>)[
        'ticket.customField:custom_field_123'
      ]?.message,
    ).toContain('RecordInvalid');
  });

  it('renews the agent token once the API refuses it, and reuses it otherwise', async () => {
    const s = await session('/agent/tickets/1?as=1');
    const issued = sandbox.tokensIssued();
    expect((await s.get(['ticket.id']))['ticket.id']).toBe(1);
    expect(sandbox.tokensIssued()).toBe(issued);
    sandbox.revokeAllTokens();
    const result = await s.get(['ticket.id']);
    expect(result).toEqual({ 'ticket.id': 1, errors: {} });
    expect(sandbox.tokensIssued()).toBe(issued + 1);
  });

  it('forgets the oldest sessions beyond maxSessions', async () => {
    const small = await startFakeSandbox({ app: { dir: app.dir }, maxSessions: 1 });
    try {
      const first = await openHostSession(small.url, '/agent/tickets/1');
      const second = await openHostSession(small.url, '/agent/tickets/1');
      expect((await first.post('rpc', { request: 'get', params: ['ticket.id'] })).status).toBe(404);
      expect((await second.post('rpc', { request: 'get', params: ['ticket.id'] })).status).toBe(
        200,
      );
    } finally {
      await small.close();
    }
  });

  it('rejects malformed RPC bodies and unknown sessions', async () => {
    const s = await session();
    expect((await s.post('rpc', { request: 'get', params: 'ticket.id' })).status).toBe(400);
    expect((await s.post('rpc', { request: 'delete', params: [] })).status).toBe(400);
    const res = await fetch(`${sandbox.url}/agent/sessions/not-a-session/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ request: 'get', params: ['ticket.id'] }),
    });
    expect(res.status).toBe(404);
  });
});

describe('client.request proxying', () => {
  it('sends relative /api/v2 URLs to the account API as the agent', async () => {
    const s = await session('/agent/tickets/1?as=1');
    const out = await s.request({ url: '/api/v2/tickets/1.json', type: 'GET', dataType: 'json' });
    expect(out.outcome).toBe('done');
    expect((out.responseArgs[0] as { ticket: { subject: string } }).ticket.subject).toBe(
      'Phishing site reported',
    );
    expect(sandbox.apiLog.at(-1)).toMatchObject({
      method: 'GET',
      path: '/tickets/1.json',
      userId: 1,
      subdomain: 'demo',
    });

    const missing = await s.request('/api/v2/tickets/424242.json');
    expect(missing.outcome).toBe('fail');
    expect(missing.responseArgs[0]).toMatchObject({
      status: 404,
      responseJSON: { error: 'RecordNotFound', description: 'Not found' },
    });
    expect(missing.responseArgs[0]?.responseText).toContain('RecordNotFound');
  });

  it('sends a secure setting only to a domainWhitelist host, as Zendesk does', async () => {
    const s = await session();
    // the echo server at 127.0.0.1 is whitelisted; the same server named localhost is not
    const elsewhere = echo.url.replace('127.0.0.1', 'localhost');
    const before = echo.requests.length;
    for (const request of [
      { url: `${elsewhere}/text?k={{setting.shared_secret}}`, secure: true },
      { url: `${elsewhere}/echo`, secure: true, headers: { 'X-K': '{{setting.shared_secret}}' } },
      { url: `${elsewhere}/echo`, type: 'POST', secure: true, data: '{{setting.shared_secret}}' },
    ]) {
      const refused = await s.request(request);
      expect(refused.outcome).toBe('fail');
      expect(refused.responseArgs[0]).toMatchObject({ status: 403 });
      expect(JSON.stringify(refused)).not.toContain(SECRET);
    }
    expect(echo.requests.length).toBe(before);
    // a setting that is not secure goes anywhere
    const open = await s.request({ url: `${elsewhere}/text?g={{setting.greeting}}`, secure: true });
    expect(open.outcome).toBe('done');
    expect(echo.requests.at(-1)?.url).toBe('/text?g=hello');
  });

  it('mints the jwt option server side (HS256 with a secure setting), as the Zendesk proxy does', async () => {
    const s = await session();
    const jwt = {
      algorithm: 'HS256',
      secret_key: '{{setting.shared_secret}}',
      expiry: 60,
      claims: { ticket_id: 1 },
    };
    const out = await s.request({
      url: `${echo.url}/echo`,
      secure: true,
      headers: { Authorization: 'Bearer {{jwt.token}}' },
      jwt,
    });
    expect(out.outcome).toBe('done');
    const token = String(echo.requests.at(-1)?.headers.authorization).replace(/^Bearer /, '');
    const { payload } = await jwtVerify(token, new TextEncoder().encode(SECRET));
    expect(payload.ticket_id).toBe(1);
    expect(payload.exp! - payload.iat!).toBe(60);
    expect(JSON.stringify(out)).not.toContain(SECRET);

    const before = echo.requests.length;
    // without secure: true the secret is not substituted, so no token is minted from the placeholder
    const notSecure = await s.request({ url: `${echo.url}/echo`, jwt });
    expect(notSecure.responseArgs[0]).toMatchObject({ status: 400 });
    // a secret from a secure setting only signs requests to the domainWhitelist hosts
    const elsewhere = echo.url.replace('127.0.0.1', 'localhost');
    const refused = await s.request({ url: `${elsewhere}/echo`, secure: true, jwt });
    expect(refused.responseArgs[0]).toMatchObject({ status: 403 });
    const badAlg = await s.request({
      url: `${echo.url}/echo`,
      secure: true,
      jwt: { ...jwt, algorithm: 'RS256' },
    });
    expect(badAlg.responseArgs[0]).toMatchObject({ status: 400 });
    expect(echo.requests.length).toBe(before);
  });

  it('substitutes {{setting.NAME}} only for secure requests', async () => {
    const s = await session();
    const secure = await s.request({
      url: `${echo.url}/text?k={{setting.shared_secret}}`,
      secure: true,
    });
    expect(secure.outcome).toBe('done');
    expect(echo.requests.at(-1)?.url).toBe(`/text?k=${SECRET}`);
    const plain = await s.request({
      url: `${echo.url}/text?k={{setting.shared_secret}}`,
      headers: { 'X-K': '{{setting.shared_secret}}' },
    });
    expect(plain.outcome).toBe('done');
    expect(echo.requests.at(-1)?.url).toBe('/text?k={{setting.shared_secret}}');
    expect(echo.requests.at(-1)?.headers['x-k']).toBe('{{setting.shared_secret}}');
  });

  it('answers with the documented shapes: text bodies, httpCompleteResponse, failures, timeouts', async () => {
    const s = await session();
    const text = await s.request({ url: `${echo.url}/text`, type: 'GET', data: { q: 'x y' } });
    expect(text).toEqual({ outcome: 'done', responseArgs: ['plain GET ?q=x+y'] });

    const complete = await s.request({ url: `${echo.url}/text`, httpCompleteResponse: true });
    expect(complete.outcome).toBe('done');
    expect(complete.responseArgs[0]).toMatchObject({
      status: 200,
      responseText: 'plain GET ',
      headers: { 'content-type': 'text/plain' },
    });

    const failed = await s.request({ url: `${echo.url}/status/503`, httpCompleteResponse: true });
    expect(failed.outcome).toBe('fail');
    expect(failed.responseArgs[0]).toMatchObject({
      status: 503,
      statusText: 'Service Unavailable',
      responseJSON: { error: 'Nope', status: 503 },
      headers: { 'x-echo': 'yes' },
    });

    const timedOut = await s.request({ url: `${echo.url}/slow`, timeout: 200 });
    expect(timedOut).toEqual({
      outcome: 'fail',
      responseArgs: [{ status: 0, statusText: 'timeout', responseText: '' }],
    });

    const badScheme = await s.request({ url: 'file:///etc/passwd' });
    expect(badScheme.outcome).toBe('fail');
    expect(badScheme.responseArgs[0]?.status).toBe(400);
    const badAlg = await s.request({
      url: `${echo.url}/echo`,
      jwt: { algorithm: 'RS256', secret_key: 'k' },
    });
    expect(badAlg.responseArgs[0]).toMatchObject({ status: 400 });
    const noUrl = await s.request({ type: 'GET' });
    expect(noUrl.outcome).toBe('fail');
  });
});

describe('ticket change events', () => {
  it('streams ZAF change events and the re-rendered ticket when the ticket changes', async () => {
    sandbox.addTicket('demo', {
      id: 8,
      tags: ['one'],
      custom_fields: [{ id: FIELD_ID, value: 'old' }],
    });
    const s = await session('/agent/tickets/8');
    const stream = await s.events();
    expect(stream.contentType).toContain('text/event-stream');
    const nextEvent = stream.next;
    try {
      const initial = await nextEvent();
      expect(initial.events).toEqual([]);
      sandbox.changeTicket('demo', 8, (t) => {
        t.tags = ['one', 'two'];
        t.custom_fields = [{ id: FIELD_ID, value: 'new' }];
      });
      const changed = await nextEvent();
      expect(changed.events).toEqual([
        { name: 'ticket.tags.changed', payload: ['one', 'two'] },
        { name: `ticket.custom_field_${FIELD_ID}.changed`, payload: 'new' },
      ]);
      expect(changed.ticketHtml).toContain('<li class="tag">two</li>');
      // Another ticket's change is not this page's business.
      sandbox.changeTicket('demo', 1, (t) => (t.status = 'pending'));
      sandbox.changeTicket('demo', 8, (t) => (t.status = 'solved'));
      const solved = await nextEvent();
      expect(solved.events).toEqual([{ name: 'ticket.status.changed', payload: 'solved' }]);
    } finally {
      stream.close();
      sandbox.changeTicket('demo', 1, (t) => (t.status = 'open'));
    }
  });
});

describe('an app served by zcli apps:server', () => {
  let zcli: Server;
  let zcliUrl: string;
  beforeAll(async () => {
    zcli = createServer((req, res) => {
      if (req.url !== '/app.json') {
        res.writeHead(404).end();
        return;
      }
      const port = (zcli.address() as AddressInfo).port;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          apps: [
            {
              name: 'Zcli App',
              id: '0',
              default_locale: 'en',
              location: {
                support: { ticket_sidebar: { url: 'assets/iframe.html', flexible: true } },
              },
              asset_url_prefix: `http://localhost:${port}/0/assets/`,
              single_install: true,
              signed_urls: false,
              framework_version: '2.0',
            },
          ],
          installations: [
            {
              app_id: '0',
              id: 'inst-uuid',
              enabled: true,
              requirements: {},
              settings: { api_key: 'zcli-secret-9', region: 'eu', title: 'Zcli App' },
            },
          ],
        }),
      );
    });
    await new Promise<void>((resolve) => zcli.listen(0, '127.0.0.1', resolve));
    zcliUrl = `http://127.0.0.1:${(zcli.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => zcli.close(() => resolve()));
  });

  it('reads /app.json as Zendesk does and keeps the secure settings named in the options server side', async () => {
    const z = await startFakeSandbox({
      app: { zcliUrl },
      installation: { secureSettingNames: ['api_key'] },
    });
    try {
      const html = await (await fetch(`${z.url}/agent/tickets/1`)).text();
      const src = iframeSrcOf(html);
      const port = (zcli.address() as AddressInfo).port;
      expect(`${src.origin}${src.pathname}`).toBe(`http://localhost:${port}/0/assets/iframe.html`);
      expect(src.searchParams.get('origin')).toBe(z.url);
      const config = hostConfigOf(html);
      expect(config.appOrigin).toBe(`http://localhost:${port}`);
      expect(config.metadata).toMatchObject({
        appId: 0,
        installationId: 'inst-uuid',
        settings: { region: 'eu', title: 'Zcli App' },
      });
      expect(html).not.toContain('zcli-secret-9');
      expect(html).not.toContain('api_key');
    } finally {
      await z.close();
    }
  });

  it('loads the app from zcli when the page is opened with ?zcli_apps=true, as the real workspace does', async () => {
    const z = await startFakeSandbox({
      app: { dir: app.dir },
      zcliUrl,
      installation: { settings: { shared_secret: SECRET } },
    });
    try {
      const port = (zcli.address() as AddressInfo).port;
      const fromFolder = iframeSrcOf(await (await fetch(`${z.url}/agent/tickets/1`)).text());
      expect(fromFolder.pathname).toBe('/agent/app/assets/iframe.html');
      const zcliHtml = await (await fetch(`${z.url}/agent/tickets/1?zcli_apps=true`)).text();
      const fromZcli = iframeSrcOf(zcliHtml);
      expect(`${fromZcli.origin}${fromZcli.pathname}`).toBe(
        `http://localhost:${port}/0/assets/iframe.html`,
      );
      // The folder's manifest marks shared_secret secure; that holds for the zcli-served copy too.
      expect(hostConfigOf(zcliHtml).metadata.settings).toMatchObject({ region: 'eu' });
      expect(zcliHtml).not.toContain(SECRET);
      expect(hostConfigOf(zcliHtml).metadata.settings).not.toHaveProperty('shared_secret');
    } finally {
      await z.close();
    }
  });

  it('says so when zcli is not running', async () => {
    const z = await startFakeSandbox({ app: { zcliUrl: 'http://127.0.0.1:1' } });
    try {
      const html = await (await fetch(`${z.url}/agent/tickets/1`)).text();
      expect(html).toContain('The app could not be loaded');
    } finally {
      await z.close();
    }
  });
});
