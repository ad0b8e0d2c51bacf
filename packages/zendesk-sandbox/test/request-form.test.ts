import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, startReceiver, startSandbox, type Running } from './support';

// The help center's request form: end users open tickets as with a Zendesk web form; triggers fire.

let run: Running;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let admin: string;

beforeAll(async () => {
  run = await startSandbox({ workspace: { maxUploadBytes: 1024 } });
  receiver = await startReceiver();
  admin = run.token(run.demo.adminId);
  const webhook = await call(run.api('demo', 'webhooks'), {
    token: admin,
    body: {
      webhook: {
        name: 'connector',
        endpoint: receiver.url,
        http_method: 'POST',
        request_format: 'json',
        status: 'active',
        subscriptions: ['conditional_ticket_events'],
      },
    },
  });
  const trigger = {
    title: 'Created',
    conditions: { all: [{ field: 'update_type', operator: 'is', value: 'Create' }] },
    actions: [
      {
        field: 'notification_webhook',
        value: [
          webhook.body.webhook.id,
          '{"kind":"created","ticketId":{{ticket.id}},"requester":"{{ticket.requester.email}}"}',
        ],
      },
    ],
  };
  expect(
    (await call(run.api('demo', 'triggers.json'), { token: admin, body: { trigger } })).status,
  ).toBe(201);
});
afterEach(async () => {
  await run.sandbox.webhooksIdle();
  receiver.received.length = 0;
});
afterAll(async () => {
  await run?.close();
  await receiver?.close();
});

function submit(
  path: string,
  fields: Record<string, string>,
  files: File[] = [],
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append('attachments', file);
  return fetch(run.url + path, { method: 'POST', body: form, headers, redirect: 'manual' });
}

const REQUEST = {
  name: 'Finn First',
  email: 'Finn@Customer.example',
  subject: 'Someone sent me a fake invoice',
  description: 'The link goes to https://invoice.phish.test/pay',
};

describe('the request form', () => {
  it('shows the form', async () => {
    const res = await fetch(`${run.url}/hc/requests/new`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<form id="request-form" method="post" action="/hc/requests/new"');
    expect(html).toContain('name="attachments"');
  });

  it('opens a ticket as a new end user, with the attachment, and the create trigger fires', async () => {
    const res = await submit('/hc/requests/new', REQUEST, [
      new File(['%PDF-1.4'], 'invoice.pdf', { type: 'application/pdf' }),
    ]);
    expect(res.status).toBe(303);
    const location = res.headers.get('location') ?? '';
    expect(location).toMatch(/^\/hc\/requests\/new\?submitted=\d+$/);
    const id = Number(location.split('=')[1]);
    const ticket = (await call(run.api('demo', `tickets/${id}.json`), { token: admin })).body
      .ticket;
    expect(ticket).toMatchObject({
      subject: REQUEST.subject,
      status: 'new',
      via: { channel: 'web' },
    });
    const requester = (
      await call(run.api('demo', `users/${ticket.requester_id}.json`), { token: admin })
    ).body.user;
    expect(requester).toMatchObject({
      email: 'finn@customer.example',
      name: 'Finn First',
      role: 'end-user',
    });
    const [comment] = (await call(run.api('demo', `tickets/${id}/comments.json`), { token: admin }))
      .body.comments;
    expect(comment).toMatchObject({
      body: REQUEST.description,
      public: true,
      author_id: requester.id,
    });
    expect(comment.attachments.map((a: { file_name: string }) => a.file_name)).toEqual([
      'invoice.pdf',
    ]);
    await run.sandbox.webhooksIdle();
    expect(receiver.received.map((r) => JSON.parse(r.raw.toString()))).toEqual([
      { kind: 'created', ticketId: id, requester: 'finn@customer.example' },
    ]);
    const shown = await (await fetch(run.url + location)).text();
    expect(shown).toContain(`Your request #${id} was submitted.`);
    expect(shown).toContain(`href="/agent/tickets/${id}"`);
  });

  it('opens the ticket in the account of the /_z/ prefix, and answers 404 for an unknown account', async () => {
    run.sandbox.createAccount('acme');
    const res = await submit('/_z/acme/hc/requests/new', REQUEST);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/_z\/acme\/hc\/requests\/new\?submitted=1$/);
    expect(run.sandbox.state.account('acme')?.tickets.get(1)?.subject).toBe(REQUEST.subject);
    expect((await fetch(`${run.url}/_z/nowhere/hc/requests/new`)).status).toBe(404);
    expect((await submit('/_z/nowhere/hc/requests/new', REQUEST)).status).toBe(404);
  });

  it('keeps hostile values escaped when it asks again for a missing field (422)', async () => {
    const hostile = '"><script>alert(1)</script>';
    const res = await submit('/hc/requests/new', {
      ...REQUEST,
      name: hostile,
      subject: '',
      description: `</textarea>${hostile}`,
    });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('Please enter a subject.');
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('required>&lt;/textarea&gt;&quot;&gt;&lt;script&gt;');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect((await submit('/hc/requests/new', { ...REQUEST, email: 'not-an-address' })).status).toBe(
      422,
    );
  });

  it('refuses a file over the limit (413) and a post from another site (403), opening nothing', async () => {
    const before = run.sandbox.state.account('demo')?.tickets.size;
    const big = await submit('/hc/requests/new', REQUEST, [
      new File([new Uint8Array(4096)], 'big.bin'),
    ]);
    expect(big.status).toBe(413);
    expect(await big.text()).toContain('big.bin is larger than 1024 bytes');
    const forged = await submit('/hc/requests/new', REQUEST, [], {
      origin: 'https://evil.example',
    });
    expect(forged.status).toBe(403);
    const fetchMeta = await submit('/hc/requests/new', REQUEST, [], {
      'sec-fetch-site': 'cross-site',
    });
    expect(fetchMeta.status).toBe(403);
    expect(run.sandbox.state.account('demo')?.tickets.size).toBe(before);
  });
});
