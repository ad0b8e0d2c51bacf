// What an admin removes in Admin Center, through the API as Zendesk offers it: the app's
// installation (no longer listed, its key no longer served) and a ticket field (204, gone from
// every ticket).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startSandbox, type Running } from './support';

describe('removing an app installation and a ticket field', () => {
  let run: Running;
  let admin: string;
  const appId = 4242;

  beforeAll(async () => {
    run = await startSandbox();
    admin = run.token(run.demo.adminId);
  });
  afterAll(async () => {
    await run?.close();
  });

  const installations = async () =>
    (
      await call(run.api('demo', 'apps/installations.json'), {
        token: run.token(run.demo.adminId, ['apps:read']),
      })
    ).body.installations as { id: number; app_id: number }[];

  it('an uninstalled app is no longer listed, nor is its key served to the account', async () => {
    const installed = await call(`${run.url}/_sandbox/accounts/demo/apps/${appId}/install`, {
      method: 'POST',
    });
    expect(installed.status).toBe(201);
    const id = installed.body.installation.id as number;
    expect((await installations()).map((i) => i.app_id)).toContain(appId);

    const agentTry = await call(run.api('demo', `apps/installations/${id}.json`), {
      method: 'DELETE',
      token: run.token(run.demo.agentIds[0]!),
    });
    expect(agentTry.status).toBe(403);
    const removed = await call(run.api('demo', `apps/installations/${id}.json`), {
      method: 'DELETE',
      token: admin,
    });
    expect(removed.status).toBe(204);
    expect((await installations()).map((i) => i.app_id)).not.toContain(appId);
    const key = await call(run.api('demo', `apps/${appId}/public_key.pem`), { token: admin });
    expect(key.status).toBe(404);
    const again = await call(run.api('demo', `apps/installations/${id}.json`), {
      method: 'DELETE',
      token: admin,
    });
    expect(again.status).toBe(404);
  });

  it('the control API uninstalls too, as an admin in Admin Center', async () => {
    await call(`${run.url}/_sandbox/accounts/demo/apps/${appId}/install`, { method: 'POST' });
    expect((await installations()).map((i) => i.app_id)).toContain(appId);
    const removed = await call(`${run.url}/_sandbox/accounts/demo/apps/${appId}/install`, {
      method: 'DELETE',
    });
    expect(removed.status).toBe(204);
    expect((await installations()).map((i) => i.app_id)).not.toContain(appId);
  });

  it('a deleted ticket field is gone from the list and from every ticket', async () => {
    const ticketId = run.demo.ticketIds[0]!;
    await call(run.api('demo', `tickets/${ticketId}.json`), {
      method: 'PUT',
      token: admin,
      body: { ticket: { custom_fields: [{ id: run.demo.threatFieldId, value: 'evil.example' }] } },
    });
    const narrow = run.token(run.demo.adminId, ['tickets:read', 'tickets:write']);
    const refused = await call(run.api('demo', `ticket_fields/${run.demo.threatFieldId}.json`), {
      method: 'DELETE',
      token: narrow,
    });
    expect(refused.status).toBe(403);
    const deleted = await call(run.api('demo', `ticket_fields/${run.demo.threatFieldId}.json`), {
      method: 'DELETE',
      token: admin,
    });
    expect(deleted.status).toBe(204);
    const fields = (await call(run.api('demo', 'ticket_fields.json'), { token: admin })).body
      .ticket_fields as { id: number }[];
    expect(fields.map((f) => f.id)).not.toContain(run.demo.threatFieldId);
    const ticket = (await call(run.api('demo', `tickets/${ticketId}.json`), { token: admin })).body
      .ticket as { custom_fields: { id: number }[] };
    expect(ticket.custom_fields.map((f) => f.id)).not.toContain(run.demo.threatFieldId);
  });
});
