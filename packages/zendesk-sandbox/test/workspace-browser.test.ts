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
  zafClient: {
    invoke(name: string, ...args: unknown[]): Promise<unknown>;
    get(paths: string[]): Promise<Record<string, unknown>>;
    on(name: string, handler: (payload: unknown) => unknown): void;
    off(name: string, handler: (payload: unknown) => unknown): void;
  };
  /** Events the app heard, in order (recorded by heardEvents). */
  heard?: Array<{ name: string; payload: unknown }>;
  /** Set in the app's window: still there after a save means the app was not reloaded. */
  aliveSince?: string;
  saveHook?: (payload: unknown) => unknown;
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
let realThirdTicketId: number;
let realAdminId: number;
let realAgentId: number;
let realApi: (path: string, init?: RequestInit) => Promise<Response>;

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
  const [ticketId, secondTicketId, thirdTicketId] = demo.ticketIds as [number, number, number];
  realSecondTicketId = secondTicketId;
  realThirdTicketId = thirdTicketId;
  realAdminId = demo.adminId;
  realAgentId = demo.agentIds[1]!;
  const adminToken = sandbox.issueToken('demo', demo.adminId);
  realApi = (path, init) =>
    fetch(`${real.url}/_z/demo/api/v2/${path}`, {
      ...init,
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    });
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

/** The third seeded ticket's page, as the second agent, with the app done loading. */
async function openLiveTicket(): Promise<Frame> {
  page = await browser.newPage();
  await page.goto(`${real.url}/_z/demo/agent/tickets/${realThirdTicketId}?as=${realAgentId}`);
  const frame = await appFrame(page);
  await untilAppDone(frame);
  return frame;
}

/** Subscribes the app to `names` and records what it hears; marks its window to tell a reload. */
async function heardEvents(frame: Frame, names: string[]): Promise<void> {
  await frame.evaluate((list) => {
    const self = globalThis as unknown as BrowserGlobals;
    self.heard = [];
    self.aliveSince = 'before the save';
    for (const name of list)
      self.zafClient.on(name, (payload) => void self.heard!.push({ name, payload }));
  }, names);
}

const heard = (frame: Frame) =>
  frame.evaluate(() => (globalThis as unknown as BrowserGlobals).heard ?? []);
const heardNames = async (frame: Frame) => (await heard(frame)).map((e) => e.name);

const TICKET_EVENTS = [
  'ticket.submit.start',
  'ticket.submit.done',
  'ticket.submit.fail',
  'ticket.submit.always',
  'ticket.tags.changed',
  'ticket.status.changed',
  'ticket.updated',
  'ticket.saved',
];

describe('the workspace keeps the app alive as Zendesk does', () => {
  it('saves the ticket form in place: the app stays loaded and hears ticket.submit.* and the changes, never ticket.saved', async () => {
    const frame = await openLiveTicket();
    const pageUrl = page.url();
    await heardEvents(frame, TICKET_EVENTS);
    await page.locator('#add-tags').fill('saved_in_place');
    await page.locator('#ticket-status-select').selectOption('pending');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForSelector('body[data-save="saved"]');

    const ticket = (await (await realApi(`tickets/${realThirdTicketId}.json`)).json()) as {
      ticket: TicketState;
    };
    expect(ticket.ticket.tags).toContain('saved_in_place');
    expect(ticket.ticket.status).toBe('pending');
    // the same app, never reloaded, on the same page
    expect(page.url()).toBe(pageUrl);
    expect(await frame.evaluate(() => (globalThis as unknown as BrowserGlobals).aliveSince)).toBe(
      'before the save',
    );
    await expect
      .poll(() => heardNames(frame))
      .toEqual(expect.arrayContaining(['ticket.tags.changed', 'ticket.status.changed']));
    const names = await heardNames(frame);
    expect(names.filter((n) => n.startsWith('ticket.submit.'))).toEqual([
      'ticket.submit.start',
      'ticket.submit.done',
      'ticket.submit.always',
    ]);
    // ticket.saved reaches the background location only; the agent's own save is no ticket.updated
    expect(names).not.toContain('ticket.saved');
    expect(names).not.toContain('ticket.updated');
    // the form now carries the saved values: the new tag can be removed, the status is pending
    expect(await page.locator('#remove-tags input[value="saved_in_place"]').count()).toBe(1);
    expect(await page.locator('#ticket-status-select').inputValue()).toBe('pending');
    await expect.poll(() => page.textContent('#ticket-tags')).toContain('saved_in_place');

    // someone else's update: ticket.updated with who made it
    const res = await realApi(`tickets/${realThirdTicketId}.json`, {
      method: 'PUT',
      body: JSON.stringify({ ticket: { comment: { body: 'From the admin', public: false } } }),
    });
    expect(res.status).toBe(200);
    await expect.poll(() => heardNames(frame)).toContain('ticket.updated');
    const updated = (await heard(frame)).find((e) => e.name === 'ticket.updated');
    expect(updated?.payload).toMatchObject({ id: realAdminId });
  });

  it('tells the app when a save fails, and lets its ticket.save hook cancel a save', async () => {
    const frame = await openLiveTicket();
    await heardEvents(frame, TICKET_EVENTS);
    // a status the API refuses: 422, the form stays, the app hears the failure
    await page.locator('#ticket-status-select').evaluate((select) => {
      const option = (
        select as unknown as { ownerDocument: { createElement(tag: string): never } }
      ).ownerDocument.createElement('option') as { value: string; textContent: string };
      option.value = 'bogus';
      option.textContent = 'bogus';
      (select as unknown as { append(node: unknown): void; value: string }).append(option);
      (select as unknown as { value: string }).value = 'bogus';
    });
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForSelector('body[data-save="failed"]');
    expect(await page.textContent('#ticket-save-error')).toContain('bogus');
    expect((await heardNames(frame)).filter((n) => n.startsWith('ticket.submit.'))).toEqual([
      'ticket.submit.start',
      'ticket.submit.fail',
      'ticket.submit.always',
    ]);

    // the app's save hook says no: nothing is sent, and the agent reads the app's reason
    await frame.evaluate(() => {
      const self = globalThis as unknown as BrowserGlobals;
      self.heard = [];
      self.saveHook = () => Promise.reject(new Error('Fill the Threat URL first'));
      self.zafClient.on('ticket.save', self.saveHook);
    });
    await page.locator('#ticket-status-select').selectOption('open');
    await page.locator('#add-tags').fill('never_saved');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForSelector('body[data-save="failed"]');
    expect(await page.textContent('#ticket-save-error')).toContain('Fill the Threat URL first');
    expect(await heardNames(frame)).toEqual([]);
    const ticket = (await (await realApi(`tickets/${realThirdTicketId}.json`)).json()) as {
      ticket: TicketState;
    };
    expect(ticket.ticket.tags).not.toContain('never_saved');

    // the hook lets it go: saved
    await frame.evaluate(() => {
      const self = globalThis as unknown as BrowserGlobals;
      self.zafClient.off('ticket.save', self.saveHook!);
      self.zafClient.on('ticket.save', () => Promise.resolve());
    });
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForSelector('body[data-save="saved"]');
    expect(await page.locator('#ticket-save-error').isHidden()).toBe(true);
    expect(await heardNames(frame)).toContain('ticket.submit.done');
  });

  it('deactivates the app when the agent goes Home and activates it again on the ticket tab', async () => {
    const frame = await openLiveTicket();
    await heardEvents(frame, ['app.activated', 'app.deactivated']);
    await page.locator('#workspace-home').click();
    expect(await page.locator('#home-pane').isVisible()).toBe(true);
    expect(await page.locator('#ticket-workspace').isHidden()).toBe(true);
    await expect.poll(() => heardNames(frame)).toEqual(['app.deactivated']);
    await page.locator('#ticket-tab').click();
    expect(await page.locator('#ticket-workspace').isVisible()).toBe(true);
    await expect
      .poll(() => heard(frame))
      .toEqual([
        { name: 'app.deactivated' },
        { name: 'app.activated', payload: { firstLoad: false } },
      ]);
    // the same app all along
    expect(await frame.evaluate(() => (globalThis as unknown as BrowserGlobals).aliveSince)).toBe(
      'before the save',
    );
  });

  it('answers instances, ticket.via, ticket.form and the agent groups in Zendesk’s shapes', async () => {
    const frame = await openLiveTicket();
    const got = await frame.evaluate(() =>
      (globalThis as unknown as BrowserGlobals).zafClient.get([
        'instances',
        'ticket.via',
        'ticket.form',
        'currentUser',
      ]),
    );
    const appGuid = new URL(frame.url()).searchParams.get('app_guid')!;
    expect(got.instances).toEqual({
      [appGuid]: {
        instanceGuid: appGuid,
        product: 'support',
        location: 'ticket_sidebar',
        ticketId: realThirdTicketId,
        account: { subdomain: 'demo' },
      },
    });
    const apiTicket = (await (await realApi(`tickets/${realThirdTicketId}.json`)).json()) as {
      ticket: { via: unknown; ticket_form_id: unknown };
    };
    expect(got['ticket.via']).toEqual(apiTicket.ticket.via);
    expect(got['ticket.via']).toMatchObject({ channel: 'web' });
    expect(got['ticket.form']).toEqual({ id: apiTicket.ticket.ticket_form_id });
    const groups = (await (await realApi('groups.json')).json()) as {
      groups: Array<{ id: number; name: string }>;
    };
    expect((got.currentUser as { groups: unknown }).groups).toEqual([
      { id: groups.groups[0]!.id, name: 'Support' },
    ]);
  });
});
