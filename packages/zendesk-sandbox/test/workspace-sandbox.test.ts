import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createZendeskSandbox,
  seedDemo,
  type ListeningSandbox,
  type DemoSeed,
  type ZendeskSandbox,
} from '../src/index';
import { startEchoServer } from './fixtures/workspace/echo-server';
import { iframeSrcOf, openHostSession } from './fixtures/workspace/host-page-client';
import { prepareTestApp } from './fixtures/workspace/prepare-test-app';

// The workspace against the real sandbox core (its Support API, tokens and change notifications),
// not the fake the other workspace tests use.
const SECRET = 'real-sandbox-secret-51c0';

let app: Awaited<ReturnType<typeof prepareTestApp>>;
let echo: Awaited<ReturnType<typeof startEchoServer>>;
let sandbox: ZendeskSandbox;
let server: ListeningSandbox;
let demo: DemoSeed;
let acme: DemoSeed;

beforeAll(async () => {
  app = await prepareTestApp();
  echo = await startEchoServer(SECRET);
  sandbox = createZendeskSandbox({
    workspace: {
      app: { dir: app.dir },
      installation: {
        settings: {
          shared_secret: SECRET,
          echo_url: `${echo.url}/echo`,
          field_title: 'Incident ID',
        },
      },
    },
  });
  demo = seedDemo(sandbox);
  acme = seedDemo(sandbox, 'acme');
  server = await sandbox.listen(0);
});
afterAll(async () => {
  await server?.close();
  await echo?.close();
  await app?.remove();
});

describe('agent workspace on the real sandbox', () => {
  it('renders a seeded ticket with its conversation, internal note, fields and tags', async () => {
    const [ticketId] = demo.ticketIds;
    const res = await fetch(
      `${server.url}/_z/demo/agent/tickets/${ticketId}?as=${demo.agentIds[0]}`,
    );
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain('Phishing site impersonating our login page');
    expect(html).toContain('Looking into it; checking the domain now.');
    expect(html).toContain('Internal note');
    expect(html).toContain('Threat URL');
    expect(html).toContain('<li class="tag">phishing</li>');
    expect(html).toContain('Erin Enduser');
    expect(iframeSrcOf(html).searchParams.get('origin')).toBe(server.url);
    expect(html).not.toContain(SECRET);
  });

  it('keeps accounts apart: the same path under another account is that account’s ticket or a 404', async () => {
    const [acmeTicket] = acme.ticketIds;
    const viaAcme = await openHostSession(server.url, `/_z/acme/agent/tickets/${acmeTicket}`);
    expect(viaAcme.config.context.account).toEqual({ subdomain: 'acme' });
    expect((await viaAcme.get(['currentUser'])).currentUser).toMatchObject({
      email: 'alex@acme.example',
    });
    // Ticket ids are per account: a ticket only demo has is a 404 under acme.
    const created = await fetch(`${server.url}/_z/demo/api/v2/tickets.json`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${sandbox.issueToken('demo', demo.adminId)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ ticket: { subject: 'Only in demo', comment: { body: 'demo only' } } }),
    });
    const onlyDemo = ((await created.json()) as { ticket: { id: number } }).ticket.id;
    expect(acme.ticketIds).not.toContain(onlyDemo);
    expect((await fetch(`${server.url}/_z/acme/agent/tickets/${onlyDemo}`)).status).toBe(404);
    expect(await (await fetch(`${server.url}/_z/demo/agent/tickets/${onlyDemo}`)).text()).toContain(
      'Only in demo',
    );
    const viaQuery = await openHostSession(
      server.url,
      `/agent/tickets/${acmeTicket}?subdomain=acme`,
    );
    expect(viaQuery.config.context.account).toEqual({ subdomain: 'acme' });
  });

  it('answers get and persists set through the Support API as the agent', async () => {
    const [ticketId] = demo.ticketIds;
    const agent = demo.agentIds[1];
    const s = await openHostSession(server.url, `/_z/demo/agent/tickets/${ticketId}?as=${agent}`);
    const threat = `ticket.customField:custom_field_${demo.threatFieldId}`;
    const incident = `ticket.customField:custom_field_${demo.incidentFieldId}`;
    const got = await s.get([
      'ticket.id',
      'ticket.tags',
      threat,
      'currentUser',
      'ticket.requester',
    ]);
    expect(got).toMatchObject({
      'ticket.id': ticketId,
      'ticket.tags': ['phishing'],
      [threat]: 'https://login-example.phish.test/',
      currentUser: {
        id: agent,
        email: 'bea@demo.example',
        locale: 'de',
        timeZone: { ianaName: 'Europe/Berlin' },
      },
      'ticket.requester': { id: demo.endUserId, email: 'erin@customer.example' },
      errors: {},
    });

    const stream = await s.events();
    try {
      expect((await stream.next()).events).toEqual([]);
      const set = await s.set({
        [incident]: 'INC-4242',
        'ticket.tags': ['phishing', 'incident_linked'],
      });
      expect(set.errors).toEqual({});
      const changed = await stream.next();
      expect(changed.events).toEqual(
        expect.arrayContaining([
          {
            name: 'ticket.tags.changed',
            payload: expect.arrayContaining(['phishing', 'incident_linked']),
          },
          { name: `ticket.custom_field_${demo.incidentFieldId}.changed`, payload: 'INC-4242' },
        ]),
      );
      expect(changed.ticketHtml).toContain('INC-4242');
    } finally {
      stream.close();
    }
    const api = await s.request({ url: `/api/v2/tickets/${ticketId}.json`, dataType: 'json' });
    expect(api.outcome).toBe('done');
    const ticket = (
      api.responseArgs[0] as {
        ticket: { tags: string[]; custom_fields: Array<{ id: number; value: unknown }> };
      }
    ).ticket;
    expect(ticket.tags).toEqual(expect.arrayContaining(['phishing', 'incident_linked']));
    expect(ticket.custom_fields).toContainEqual({ id: demo.incidentFieldId, value: 'INC-4242' });
    const me = await s.request('/api/v2/users/me.json');
    expect(me.responseArgs[0]).toMatchObject({ user: { id: agent } });
  });

  it('sends secure settings to the whitelisted host only, and reports API errors through .fail', async () => {
    const s = await openHostSession(server.url, `/_z/demo/agent/tickets/${demo.ticketIds[1]}`);
    const out = await s.request({
      url: `${echo.url}/text?k={{setting.shared_secret}}`,
      secure: true,
    });
    expect(out.outcome).toBe('done');
    const refused = await s.request({
      url: `${echo.url.replace('127.0.0.1', 'localhost')}/text?k={{setting.shared_secret}}`,
      secure: true,
    });
    expect(refused).toMatchObject({ outcome: 'fail', responseArgs: [{ status: 403 }] });
    const missing = await s.request('/api/v2/tickets/987654321.json');
    expect(missing).toMatchObject({
      outcome: 'fail',
      responseArgs: [{ status: 404, responseJSON: { error: 'RecordNotFound' } }],
    });
  });
});
