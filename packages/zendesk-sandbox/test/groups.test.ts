// GET /api/v2/groups: the account's groups (the admin page's group picker), read with users:read
// like group memberships, each account its own, a token from elsewhere refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startSandbox, type Running } from './support';

describe('groups', () => {
  let run: Running;
  let acmeAdminId: number;

  beforeAll(async () => {
    run = await startSandbox();
    const created = await call(`${run.url}/_sandbox/accounts`, {
      body: {
        subdomain: 'acme',
        users: [{ name: 'Acme Admin', email: 'admin@acme.example', role: 'admin' }],
      },
    });
    acmeAdminId = created.body.users[0].id;
  });
  afterAll(() => run.close());

  it('lists the account’s groups with users:read, cursor-paginated', async () => {
    const token = run.token(acmeAdminId, ['users:read'], 'acme');
    const page = await call(run.api('acme', 'groups.json?page[size]=100'), { token });
    expect(page.status).toBe(200);
    expect(page.body.groups).toEqual([{ id: expect.any(Number), name: 'Support', deleted: false }]);
    expect(page.body.meta.has_more).toBe(false);
  });

  it('refuses a token without a users scope, and one from another account', async () => {
    const ticketsOnly = run.token(acmeAdminId, ['tickets:read'], 'acme');
    expect((await call(run.api('acme', 'groups.json'), { token: ticketsOnly })).status).toBe(403);
    const demoAgent = run.token(run.demo.agentIds[0]);
    expect((await call(run.api('acme', 'groups.json'), { token: demoAgent })).status).toBe(401);
  });
});
