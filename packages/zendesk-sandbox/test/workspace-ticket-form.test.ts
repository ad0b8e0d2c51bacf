import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, startReceiver, startSandbox, type Running } from './support';

// The agent workspace's ticket form against the real sandbox core: every Submit is a Support API
// update as the agent, so triggers and webhooks fire as they do for the API.

let run: Running;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let admin: string;

beforeAll(async () => {
  run = await startSandbox({ workspace: { maxUploadBytes: 1024, maxUploadFiles: 3 } });
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
    title: 'Report threat',
    conditions: {
      all: [{ field: 'current_tags', operator: 'includes', value: 'incident_submit' }],
    },
    actions: [
      {
        field: 'notification_webhook',
        value: [webhook.body.webhook.id, '{"kind":"report","ticketId":{{ticket.id}}}'],
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

async function openPage(path: string) {
  const res = await fetch(run.url + path);
  const html = await res.text();
  const token = /name="form_token" value="([^"]+)"/.exec(html)?.[1] ?? '';
  return { res, html, token };
}

function post(path: string, fields: Record<string, string | string[]>, files: File[] = []) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields))
    for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
  for (const file of files) form.append('attachments', file);
  return fetch(run.url + path, { method: 'POST', body: form, redirect: 'manual' });
}

const ticketOf = async (id: number) =>
  (await call(run.api('demo', `tickets/${id}.json`), { token: admin })).body.ticket;
const commentsOf = async (id: number) =>
  (await call(run.api('demo', `tickets/${id}/comments.json`), { token: admin })).body.comments;

describe('the ticket form of the agent workspace', () => {
  it('fills a field, adds a tag, writes an internal note with an attachment and sets the status; the trigger fires', async () => {
    const id = run.demo.ticketIds[1]!;
    const field = `field_${run.demo.threatFieldId}`;
    const path = `/agent/tickets/${id}`;
    const { html, token, res } = await openPage(path);
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(html).toContain(`name="${field}"`);
    const answer = await post(
      path,
      {
        form_token: token,
        [field]: 'https://fake-support.phish.test/',
        [`was_${field}`]: '',
        add_tags: 'incident_submit, urgent',
        comment_kind: 'internal',
        comment_body: 'Reporting this one.',
        status: 'pending',
        was_status: 'open',
      },
      [new File(['From: scam@phish.test'], 'message.eml', { type: 'message/rfc822' })],
    );
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(path);

    const ticket = await ticketOf(id);
    expect(ticket.tags).toEqual(expect.arrayContaining(['incident_submit', 'urgent']));
    expect(ticket.status).toBe('pending');
    expect(ticket.custom_fields).toContainEqual({
      id: run.demo.threatFieldId,
      value: 'https://fake-support.phish.test/',
    });
    const last = (await commentsOf(id)).at(-1);
    expect(last).toMatchObject({ body: 'Reporting this one.', public: false });
    expect(last.author_id).toBe(run.demo.agentIds[0]);
    expect(last.attachments).toHaveLength(1);
    expect(last.attachments[0]).toMatchObject({ file_name: 'message.eml', size: 21 });
    await run.sandbox.webhooksIdle();
    expect(receiver.received.map((r) => JSON.parse(r.raw.toString()))).toEqual([
      { kind: 'report', ticketId: id },
    ]);
  });

  it('removes a tag and writes a public reply without touching fields it did not change', async () => {
    const id = run.demo.ticketIds[0]!;
    const path = `/agent/tickets/${id}`;
    const { token } = await openPage(path);
    // changed elsewhere after the page was rendered: an unchanged form field must not undo it
    await call(run.api('demo', `tickets/${id}.json`), {
      method: 'PUT',
      token: admin,
      body: { ticket: { custom_fields: [{ id: run.demo.incidentFieldId, value: 'INC-9' }] } },
    });
    const answer = await post(path, {
      form_token: token,
      [`field_${run.demo.incidentFieldId}`]: '',
      [`was_field_${run.demo.incidentFieldId}`]: '',
      remove_tag: 'phishing',
      comment_kind: 'public',
      comment_body: 'We reported it.',
      status: 'open',
      was_status: 'open',
    });
    expect(answer.status).toBe(303);
    const ticket = await ticketOf(id);
    expect(ticket.tags).not.toContain('phishing');
    expect(ticket.custom_fields).toContainEqual({ id: run.demo.incidentFieldId, value: 'INC-9' });
    expect((await commentsOf(id)).at(-1)).toMatchObject({ body: 'We reported it.', public: true });
  });

  it('refuses a post without the page token, or with the token of another ticket (403)', async () => {
    const [first, second] = run.demo.ticketIds as [number, number];
    const before = await ticketOf(first);
    const { token } = await openPage(`/agent/tickets/${second}`);
    for (const formToken of ['', 'guessed', token]) {
      const answer = await post(`/agent/tickets/${first}`, {
        form_token: formToken,
        add_tags: 'csrf',
      });
      expect(answer.status).toBe(403);
      expect(await answer.text()).toContain('reload the ticket');
    }
    expect((await ticketOf(first)).tags).toEqual(before.tags);
  });

  it('refuses a file over the limit (413) and files without a comment (422), changing nothing', async () => {
    const id = run.demo.ticketIds[2]!;
    const path = `/agent/tickets/${id}`;
    const { token } = await openPage(path);
    const before = (await commentsOf(id)).length;
    const big = await post(path, { form_token: token, comment_body: 'big' }, [
      new File([new Uint8Array(2048)], 'big.bin'),
    ]);
    expect(big.status).toBe(413);
    expect(await big.text()).toContain('big.bin is larger than 1024 bytes');
    const bare = await post(path, { form_token: token, comment_body: '  ' }, [
      new File(['x'], 'x.txt'),
    ]);
    expect(bare.status).toBe(422);
    expect(await bare.text()).toContain('Write a comment to attach files to');
    expect(await commentsOf(id)).toHaveLength(before);
  });

  it('refuses an unknown status (422) and shows unknown tickets as 404', async () => {
    const id = run.demo.ticketIds[2]!;
    const { token } = await openPage(`/agent/tickets/${id}`);
    const bad = await post(`/agent/tickets/${id}`, {
      form_token: token,
      status: 'deleted',
      was_status: 'new',
    });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('Status &quot;deleted&quot; is not one of');
    expect((await openPage('/agent/tickets/999')).res.status).toBe(404);
    expect((await post('/agent/tickets/abc', { form_token: token })).status).toBe(404);
    const json = await fetch(`${run.url}/agent/tickets/${id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ form_token: token, status: 'solved' }),
    });
    expect(json.status).toBe(400);
    expect(await json.text()).toContain('expected a form post');
  });

  it('shows a drop-down field by its option name and edits it as a select of its options', async () => {
    const field = run.demo.statusFieldId;
    const created = await call(run.api('demo', 'tickets.json'), {
      token: admin,
      body: {
        ticket: {
          subject: 'Drop-down',
          comment: { body: 'x' },
          custom_fields: [{ id: field, value: 'incident_status_approval_required' }],
        },
      },
    });
    const id = created.body.ticket.id as number;
    const { html, token } = await openPage(`/agent/tickets/${id}`);
    expect(html).toContain(
      `<div class="field" data-field-id="${field}"><dt>Incident Status</dt><dd data-value="incident_status_approval_required">Approval required</dd></div>`,
    );
    expect(html).toContain(`<select name="field_${field}" data-field-id="${field}">`);
    expect(html).toContain(
      '<option value="incident_status_approval_required" selected>Approval required</option>',
    );
    expect(html).toContain('<option value="incident_status_pre_weaponised">Monitoring</option>');

    const posted = await post(`/agent/tickets/${id}`, {
      form_token: token,
      [`field_${field}`]: 'incident_status_takedown_success',
      [`was_field_${field}`]: 'incident_status_approval_required',
      comment_kind: 'internal',
      comment_body: '',
    });
    expect(posted.status).toBe(303);
    const ticket = await ticketOf(id);
    expect(ticket.custom_fields).toContainEqual({
      id: field,
      value: 'incident_status_takedown_success',
    });
    expect(ticket.tags).toContain('incident_status_takedown_success');
  });

  it('escapes hostile field values, tags and subjects in the form', async () => {
    const hostile = '"><script>alert(1)</script>';
    const created = await call(run.api('demo', 'tickets.json'), {
      token: admin,
      body: {
        ticket: {
          subject: hostile,
          comment: { body: hostile },
          tags: ['<b>bold</b>'],
          custom_fields: [{ id: run.demo.threatFieldId, value: hostile }],
        },
      },
    });
    const { html } = await openPage(`/agent/tickets/${created.body.ticket.id}`);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<b>bold');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });
});

describe('the ticket list of the agent workspace', () => {
  it('lists the tickets newest first, each linking to its page with the same agent', async () => {
    const agent = run.demo.agentIds[1];
    const res = await fetch(`${run.url}/agent/tickets?as=${agent}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const ids = [...html.matchAll(/<tr data-ticket-id="(\d+)">/g)].map((m) => Number(m[1]));
    expect(ids.length).toBeGreaterThanOrEqual(3);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(html).toContain(`href="/agent/tickets/${run.demo.ticketIds[0]}?as=${agent}"`);
    expect(html).toContain('Bea Agent');
    const page = await openPage(`/agent/tickets/${run.demo.ticketIds[0]}?as=${agent}`);
    expect(page.html).toContain(`<a id="all-tickets" href="/agent/tickets?as=${agent}">`);
  });

  it('escapes hostile subjects and tags, and refuses an end user (403)', async () => {
    await call(run.api('demo', 'tickets.json'), {
      token: admin,
      body: {
        ticket: {
          subject: '<img src=x onerror=alert(1)>',
          comment: { body: 'x' },
          tags: ['"><b>'],
        },
      },
    });
    const html = await (await fetch(`${run.url}/agent/tickets`)).text();
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('"><b>');
    expect((await fetch(`${run.url}/agent/tickets?as=${run.demo.endUserId}`)).status).toBe(403);
    expect((await fetch(`${run.url}/_z/nowhere/agent/tickets`)).status).toBe(404);
  });
});
