import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { jwtVerify } from 'jose';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createZendeskSandbox, seedDemo, type ListeningSandbox } from '../src/index';
import { startEchoServer } from './fixtures/workspace/echo-server';
import { FIELD_ID, startFakeSandbox, type FakeSandbox } from './fixtures/workspace/fake-sandbox';
import { prepareTestApp } from './fixtures/workspace/prepare-test-app';

// Drives the host page with the real zendesk_app_framework_sdk in Debian's Chromium (never downloaded).
const CHROMIUM = '/usr/bin/chromium';
const SECRET = 'browser-secret-7d41e2b9';
/** What the app's page runs in the frame: minutes, not seconds, on a loaded machine. */
const WAIT_MS = 120_000;
const RESULTS_DIR = fileURLToPath(new URL('../test-results/', import.meta.url));

type Steps = Record<string, unknown> & { done?: boolean };
// What the callbacks run in the browser touch; the package compiles without the DOM lib.
interface BrowserGlobals {
  testResults: Steps;
  zafClient: { invoke(name: string, ...args: unknown[]): Promise<unknown> };
  __pwned?: number;
  postMessage(message: unknown, targetOrigin: string): void;
}

interface TicketState {
  tags: string[];
  custom_fields: Array<{ id: number; value: unknown }>;
  status: string;
}

/** One sandbox the protocol scenario runs against, and what it should report. */
interface Backend {
  name: string;
  pageUrl: string;
  ticketId: number;
  fieldId: number;
  installationId: unknown;
  expected: {
    subject: string;
    tags: string[];
    field: unknown;
    agent: Record<string, unknown>;
    requesterId: number;
  };
  readTicket(): Promise<TicketState>;
  /** Someone else (not the app) adds a tag. */
  addTag(tag: string): Promise<void>;
}

let browser: Browser;
let app: Awaited<ReturnType<typeof prepareTestApp>>;
let echo: Awaited<ReturnType<typeof startEchoServer>>;
let fake: FakeSandbox;
let real: ListeningSandbox;
let fakeBackend: Backend;
let realBackend: Backend;
let page: Page;
let realSecondTicketId: number;

const settings = (fieldTitle: string) => ({
  shared_secret: SECRET,
  echo_url: `${echo.url}/echo`,
  field_title: fieldTitle,
});

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium package`);
  await mkdir(RESULTS_DIR, { recursive: true });
  app = await prepareTestApp();
  echo = await startEchoServer(SECRET);

  fake = await startFakeSandbox({
    app: { dir: app.dir },
    installation: { settings: settings('Incident reference') },
  });
  fakeBackend = {
    name: 'fake',
    pageUrl: `${fake.url}/agent/tickets/1?as=2`,
    ticketId: 1,
    fieldId: FIELD_ID,
    // the fake installs the app with its own ids
    installationId: 900,
    expected: {
      subject: 'Phishing site reported',
      tags: ['abuse'],
      field: 'INC-1',
      agent: {
        id: 2,
        name: 'Alan Agent',
        email: 'agent@demo.test',
        role: 'agent',
        timeZone: { ianaName: 'Europe/Copenhagen' },
      },
      requesterId: 3,
    },
    readTicket: async () => fake.accounts.get('demo')!.tickets.get(1)!,
    addTag: async (tag) => fake.changeTicket('demo', 1, (t) => t.tags.push(tag)),
  };

  const sandbox = createZendeskSandbox({
    workspace: {
      app: { dir: app.dir },
      installation: { settings: settings('Incident ID') },
    },
  });
  const demo = seedDemo(sandbox);
  real = await sandbox.listen(0);
  const [ticketId, secondTicketId] = demo.ticketIds as [number, number];
  realSecondTicketId = secondTicketId;
  const adminToken = sandbox.issueToken('demo', demo.adminId);
  const ticketUrl = `${real.url}/_z/demo/api/v2/tickets/${ticketId}.json`;
  const auth = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  realBackend = {
    name: 'real',
    pageUrl: `${real.url}/_z/demo/agent/tickets/${ticketId}?as=${demo.agentIds[1]}`,
    ticketId,
    fieldId: demo.incidentFieldId,
    // the sandbox's first installation id
    installationId: 360_000_000_001,
    expected: {
      subject: 'Phishing site impersonating our login page',
      tags: ['phishing'],
      field: null,
      agent: {
        id: demo.agentIds[1],
        name: 'Bea Agent',
        email: 'bea@demo.example',
        role: 'agent',
        timeZone: { ianaName: 'Europe/Berlin' },
      },
      requesterId: demo.endUserId,
    },
    readTicket: async () =>
      ((await (await fetch(ticketUrl, { headers: auth })).json()) as { ticket: TicketState })
        .ticket,
    addTag: async (tag) => {
      const res = await fetch(ticketUrl, {
        method: 'PUT',
        headers: auth,
        body: JSON.stringify({ ticket: { additional_tags: [tag] } }),
      });
      expect(res.status).toBe(200);
    },
  };

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  });
});

afterEach(async () => {
  await page?.close();
});

afterAll(async () => {
  await browser?.close();
  await fake?.close();
  await real?.close();
  await echo?.close();
  await app?.remove();
});

async function appFrame(p: Page): Promise<Frame> {
  const handle = await p.waitForSelector('#zaf-app-frame');
  const frame = await handle.contentFrame();
  if (!frame) throw new Error('app iframe has no frame');
  return frame;
}

const steps = (frame: Frame) =>
  frame.evaluate(() => (globalThis as unknown as BrowserGlobals).testResults);

/**
 * Until the app's script is done, or its chain failed (then the failure is the test's error at
 * once, instead of a wait running out with no reason).
 */
async function untilAppDone(frame: Frame): Promise<void> {
  await frame.waitForFunction(
    () => {
      const results = (globalThis as unknown as BrowserGlobals).testResults;
      return results.done === true || results.chain !== undefined;
    },
    null,
    { timeout: WAIT_MS },
  );
  const results = await steps(frame);
  if (results.done !== true)
    throw new Error(
      `the app's script failed: ${JSON.stringify(results.chain)}; steps ${JSON.stringify(Object.keys(results))}`,
    );
}

async function runProtocolScenario(backend: Backend) {
  page = await browser.newPage();
  const bodies: Promise<string>[] = [];
  page.on('response', (response) => {
    if (!(response.headers()['content-type'] ?? '').includes('event-stream'))
      bodies.push(response.text().catch(() => ''));
  });
  await page.goto(backend.pageUrl);
  const frame = await appFrame(page);
  await untilAppDone(frame);
  const r = (await steps(frame)) as Record<string, Record<string, unknown>>;
  expect(r.chain).toBeUndefined();
  const fieldPath = `ticket.customField:custom_field_${backend.fieldId}`;
  expect(r.fieldPath).toBe(fieldPath);

  // Handshake: app.registered with metadata (no secure setting) and context; the iframe is cross-origin.
  const appGuid = new URL(frame.url()).searchParams.get('app_guid');
  expect(new URL(frame.url()).searchParams.get('origin')).toBe(new URL(page.url()).origin);
  expect(new URL(frame.url()).origin).not.toBe(new URL(page.url()).origin);
  expect(r.registered).toEqual({
    metadata: {
      appId: 1,
      installationId: backend.installationId,
      name: 'Workspace protocol test app',
      settings: {
        title: 'Workspace protocol test app',
        greeting: 'hello',
        echo_url: `${echo.url}/echo`,
        field_title: (r.registered?.metadata as { settings: { field_title: string } }).settings
          .field_title,
      },
    },
    context: {
      product: 'support',
      location: 'ticket_sidebar',
      ticketId: backend.ticketId,
      account: { subdomain: 'demo' },
      instanceGuid: appGuid,
    },
  });
  expect(r.activated).toEqual({ firstLoad: true });

  // get
  expect(r.get).toMatchObject({
    'ticket.id': backend.ticketId,
    'ticket.subject': backend.expected.subject,
    'ticket.tags': backend.expected.tags,
    'ticket.requester': { id: backend.expected.requesterId },
    currentUser: backend.expected.agent,
    currentAccount: { subdomain: 'demo' },
    [fieldPath]: backend.expected.field,
    errors: {},
  });
  expect(r.getUnknown).toMatchObject({ rejected: true });
  expect(String(r.getUnknown?.message)).toContain('ticket.noSuchThing');

  // set: persisted through the API, and the host page shows it once the change streams back.
  expect(r.set).toMatchObject({ [fieldPath]: 'set-by-app', errors: {} });
  expect((await backend.readTicket()).custom_fields).toContainEqual({
    id: backend.fieldId,
    value: 'set-by-app',
  });
  await expect.poll(() => page.textContent('#ticket-custom-fields')).toContain('set-by-app');

  // invoke resize changes the iframe.
  expect(r.resize).toMatchObject({ errors: {} });
  expect((await page.locator('#zaf-app-frame').boundingBox())?.height).toBe(321);

  // client.request with the jwt option: minted server side, verified by the backend with the secret.
  expect(r.jwtRequest).toMatchObject({
    status: 200,
    responseJSON: {
      verified: true,
      alg: 'HS256',
      claims: {
        subdomain: 'demo',
        agent_id: backend.expected.agent.id,
        agent_email: backend.expected.agent.email,
        ticket_id: backend.ticketId,
      },
      body: '{"hello":"echo"}',
    },
  });
  const claims = (r.jwtRequest?.responseJSON as { claims: { iat: number; exp: number } }).claims;
  expect(claims.exp - claims.iat).toBe(120);
  const token = String(
    echo.requests.findLast((q) => q.url === '/echo')?.headers.authorization,
  ).replace(/^Bearer /, '');
  await expect(jwtVerify(token, new TextEncoder().encode(SECRET))).resolves.toBeTruthy();
  await expect(jwtVerify(token, new TextEncoder().encode('another-secret'))).rejects.toThrow();

  // Relative API requests run as the agent; failures come back through .fail.
  expect((r.apiRequest as { ticket: { id: number } }).ticket.id).toBe(backend.ticketId);
  expect(r.apiMissing).toMatchObject({
    rejected: true,
    detail: { status: 404, responseJSON: { error: 'RecordNotFound' } },
  });

  // An event subscription fires when someone else changes the ticket.
  await backend.addTag('urgent');
  await frame.waitForFunction(
    () => (globalThis as unknown as BrowserGlobals).testResults.tagsChanged !== undefined,
  );
  expect((await steps(frame)).tagsChanged).toEqual([...backend.expected.tags, 'urgent']);
  await expect.poll(() => page.textContent('#ticket-tags')).toContain('urgent');

  await page.screenshot({
    path: `${RESULTS_DIR}workspace-protocol-${backend.name}.png`,
    fullPage: true,
  });

  // The secure setting reached neither the page, nor the iframe, nor any response the browser received.
  expect(await page.content()).not.toContain(SECRET);
  expect(await frame.content()).not.toContain(SECRET);
  expect(JSON.stringify(await steps(frame))).not.toContain(SECRET);
  const received = await Promise.all(bodies);
  expect(received.length).toBeGreaterThan(5);
  for (const body of received) expect(body).not.toContain(SECRET);
}

describe('agent workspace host page in Chromium', () => {
  it('speaks ZAF to the real SDK (fake sandbox): handshake, get, set, resize, events, jwt request', async () => {
    await runProtocolScenario(fakeBackend);
  });

  it('speaks ZAF to the real SDK on the real sandbox core', async () => {
    await runProtocolScenario(realBackend);
  });

  it('routeTo("ticket", id) opens that ticket as the same agent; any other target is refused', async () => {
    page = await browser.newPage();
    await page.goto(realBackend.pageUrl);
    const frame = await appFrame(page);
    await untilAppDone(frame);
    const invoke = (args: unknown[]) =>
      frame.evaluate(
        (list) =>
          (globalThis as unknown as BrowserGlobals).zafClient.invoke(...(list as [string])).then(
            () => 'resolved',
            (error: unknown) => `rejected: ${String((error as Error)?.message ?? error)}`,
          ),
        args,
      );
    expect(await invoke(['routeTo', 'user', 5])).toMatch(/^rejected: .*only \("ticket"/);
    expect(await invoke(['routeTo', 'ticket', 'x'])).toMatch(/^rejected/);
    expect(page.url()).toBe(realBackend.pageUrl);

    const before = new URL(realBackend.pageUrl);
    const [answer] = await Promise.all([
      invoke(['routeTo', 'ticket', realSecondTicketId]).catch(() => 'navigated'),
      page.waitForURL((url) => url.pathname.endsWith(`/agent/tickets/${realSecondTicketId}`)),
    ]);
    expect(['resolved', 'navigated']).toContain(answer);
    const after = new URL(page.url());
    expect(after.pathname).toBe(before.pathname.replace(/\/\d+$/, `/${realSecondTicketId}`));
    expect(after.searchParams.get('as')).toBe(before.searchParams.get('as'));
    // the other ticket's page, with the app in its own frame
    const next = await appFrame(page);
    await untilAppDone(next);
    const steps = (await next.evaluate(
      () => (globalThis as unknown as BrowserGlobals).testResults,
    )) as Record<string, Record<string, unknown>>;
    expect(steps.get?.['ticket.id']).toBe(realSecondTicketId);
  });

  it('ignores messages that do not come from the app iframe', async () => {
    page = await browser.newPage();
    await page.goto(`${fake.url}/agent/tickets/1`);
    const frame = await appFrame(page);
    await untilAppDone(frame);
    const before = (await fakeBackend.readTicket()).status;
    // Another window (here the page itself) posting ZAF messages is not the app: nothing happens.
    const version = await page.getAttribute('body', 'data-ticket-version');
    await page.evaluate(async () => {
      const self = globalThis as unknown as BrowserGlobals;
      self.postMessage(
        JSON.stringify({ id: 999, request: 'set', params: { 'ticket.status': 'closed' } }),
        '*',
      );
      self.postMessage({ id: 998, request: 'set', params: { 'ticket.status': 'closed' } }, '*');
      await new Promise((resolve) => setTimeout(resolve, 500));
    });
    expect(before).not.toBe('closed');
    expect((await fakeBackend.readTicket()).status).toBe(before);
    expect(await page.getAttribute('body', 'data-ticket-version')).toBe(version);
  });

  it('renders a hostile subject, comment and tag as inert text', async () => {
    const hostile = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;
    fake.addTicket(
      'demo',
      {
        id: 66,
        subject: hostile,
        tags: ['<b>bold</b>'],
        custom_fields: [{ id: FIELD_ID, value: '<svg onload="window.__pwned=3">' }],
      },
      [
        {
          id: 661,
          author_id: 3,
          body: `Hi</div><script>window.__pwned=4</script><img src=y onerror="window.__pwned=5">`,
          public: true,
          created_at: 'now',
          attachments: [],
        },
      ],
    );
    page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${fake.url}/agent/tickets/66`);
    await expect.poll(() => page.textContent('#ticket-subject')).toBe(hostile);
    expect(await page.textContent('#ticket-tags')).toBe('<b>bold</b>');
    expect(await page.textContent('#ticket-conversation .comment-body')).toContain(
      '<script>window.__pwned=4</script>',
    );
    expect(
      await page
        .locator('#ticket-panel img, #ticket-panel script, #ticket-panel svg, #ticket-panel b')
        .count(),
    ).toBe(0);

    // The same holds for the panel re-rendered after a change.
    fake.changeTicket('demo', 66, (t) => (t.subject = `${hostile} (edited)`));
    await expect.poll(() => page.textContent('#ticket-subject')).toBe(`${hostile} (edited)`);
    expect(
      await page.locator('#ticket-panel img, #ticket-panel script, #ticket-panel svg').count(),
    ).toBe(0);
    expect(
      await page.evaluate(() => (globalThis as unknown as BrowserGlobals).__pwned),
    ).toBeUndefined();
    expect(dialogs).toEqual([]);
    await page.screenshot({ path: `${RESULTS_DIR}workspace-hostile-ticket.png`, fullPage: true });
  });
});
