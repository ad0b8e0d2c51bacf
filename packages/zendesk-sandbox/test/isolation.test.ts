import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startSandbox, type Running } from './support';

describe('account isolation', () => {
  let run: Running;
  let demoAgent: string;
  let otherAdmin: string;
  let otherAdminId: number;

  beforeAll(async () => {
    run = await startSandbox();
    const created = await call(`${run.url}/_sandbox/accounts`, {
      body: {
        subdomain: 'acme',
        users: [{ name: 'Acme Admin', email: 'admin@acme.example', role: 'admin' }],
      },
    });
    expect(created.status).toBe(201);
    otherAdminId = created.body.users[0].id;
    demoAgent = run.token(run.demo.agentIds[0]);
    otherAdmin = run.token(otherAdminId, ['read', 'write'], 'acme');
  });
  afterAll(() => run.close());

  it("numbers tickets per account and never shows one account the other's ticket", async () => {
    const acmeTicket = await call(run.api('acme', 'tickets.json'), {
      token: otherAdmin,
      body: { ticket: { subject: 'Acme secret', comment: { body: 'acme only' } } },
    });
    expect(acmeTicket.body.ticket.id).toBe(1);
    const demoTicket = await call(run.api('demo', 'tickets/1.json'), { token: demoAgent });
    expect(demoTicket.body.ticket.subject).not.toBe('Acme secret');
    const acmeView = await call(run.api('acme', 'tickets/1.json'), { token: otherAdmin });
    expect(acmeView.body.ticket.subject).toBe('Acme secret');
    expect((await call(run.api('acme', 'tickets/2.json'), { token: otherAdmin })).status).toBe(404);
  });

  it('rejects a token from another account on every route', async () => {
    for (const path of [
      'tickets/1.json',
      'users/me.json',
      'ticket_fields.json',
      'search.json?query=type:ticket',
      'webhooks',
      'triggers.json',
    ]) {
      const response = await call(run.api('acme', path), { token: demoAgent });
      expect(response.status, path).toBe(401);
    }
  });

  it('keeps users, fields, webhooks, triggers and search results to their account', async () => {
    expect(
      (await call(run.api('acme', `users/${run.demo.endUserId}.json`), { token: otherAdmin }))
        .status,
    ).toBe(404);
    // the other account lists only the system fields every account has, none of demo's own
    const fields = (await call(run.api('acme', 'ticket_fields.json'), { token: otherAdmin })).body
      .ticket_fields as { removable: boolean }[];
    expect(fields.length).toBeGreaterThan(0);
    expect(fields.every((field) => !field.removable)).toBe(true);
    const search = await call(
      run.api('acme', `search.json?query=${encodeURIComponent('type:ticket phishing')}`),
      { token: otherAdmin },
    );
    expect(search.body.results).toEqual([]);
    const hook = await call(run.api('demo', 'webhooks'), {
      token: run.token(run.demo.adminId),
      body: {
        webhook: {
          name: 'w',
          endpoint: 'https://example.test/',
          http_method: 'POST',
          request_format: 'json',
          status: 'active',
          subscriptions: ['conditional_ticket_events'],
        },
      },
    });
    expect(
      (
        await call(run.api('acme', `webhooks/${hook.body.webhook.id}/signing_secret`), {
          token: otherAdmin,
        })
      ).status,
    ).toBe(404);
    const trigger = await call(run.api('acme', 'triggers.json'), {
      token: otherAdmin,
      body: {
        trigger: {
          title: 't',
          conditions: { all: [{ field: 'update_type', operator: 'is', value: 'Create' }] },
          actions: [{ field: 'notification_webhook', value: [hook.body.webhook.id, '{}'] }],
        },
      },
    });
    expect(trigger.status).toBe(422);
  });

  it("does not serve one account's attachment under another subdomain", async () => {
    const reply = await call(`${run.url}/_sandbox/accounts/demo/tickets/1/comments`, {
      body: {
        author_id: run.demo.agentIds[0],
        body: 'file',
        attachments: [
          { file_name: 'f.txt', content_base64: Buffer.from('demo data').toString('base64') },
        ],
      },
    });
    const contentUrl = reply.body.comment.attachments[0].content_url as string;
    expect((await fetch(contentUrl)).status).toBe(200);
    expect((await fetch(contentUrl.replace('/_z/demo/', '/_z/acme/'))).status).toBe(404);
  });

  it('also picks the account from a <subdomain>.localhost Host header', async () => {
    const { request } = await import('node:http');
    const url = new URL(run.api('acme', 'tickets/1.json').replace('/_z/acme', ''));
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        url,
        { headers: { Host: `acme.localhost:${url.port}`, Authorization: `Bearer ${otherAdmin}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
  });

  it('answers an unknown account with 404', async () => {
    expect((await call(run.api('nowhere', 'tickets/1.json'), { token: demoAgent })).status).toBe(
      404,
    );
  });
});
