import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startSandbox, type Running } from './support';

describe('ticket audits and their metadata', () => {
  let run: Running;
  let agent: string;

  beforeAll(async () => {
    run = await startSandbox();
    agent = run.token(run.demo.agentIds[0]);
  });
  afterAll(() => run.close());

  async function newTicket(): Promise<number> {
    const created = await call(run.api('demo', 'tickets.json'), {
      token: agent,
      body: { ticket: { subject: 'Audited', comment: { body: 'first' } } },
    });
    return created.body.ticket.id as number;
  }

  it("keeps an update's metadata on its audit, under metadata.custom, and answers it with the update", async () => {
    const id = await newTicket();
    const updated = await call(run.api('demo', `tickets/${id}.json`), {
      method: 'PUT',
      token: agent,
      body: {
        ticket: {
          comment: { body: 'a note', public: false },
          metadata: { incident_desk: { ref: 'r-1', events: ['evt_a', 'evt_b'] } },
        },
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.audit.metadata.custom).toEqual({
      incident_desk: { ref: 'r-1', events: ['evt_a', 'evt_b'] },
    });

    const listed = await call(run.api('demo', `tickets/${id}/audits.json`), { token: agent });
    expect(listed.status).toBe(200);
    expect(listed.body.audits).toHaveLength(2);
    const [create, update] = listed.body.audits;
    expect(create.metadata.custom).toEqual({});
    expect(create.events.map((e: { type: string }) => e.type)).toEqual(['Create', 'Comment']);
    expect(update).toMatchObject({
      id: updated.body.audit.id,
      ticket_id: id,
      author_id: run.demo.agentIds[0],
      metadata: { custom: { incident_desk: { ref: 'r-1', events: ['evt_a', 'evt_b'] } } },
    });
    // the note itself carries none of it
    const comment = update.events.find((e: { type: string }) => e.type === 'Comment');
    expect(comment.body).toBe('a note');
  });

  it('keeps the metadata of each update_many item on that ticket’s audit', async () => {
    const [a, b] = [await newTicket(), await newTicket()];
    const queued = await call(run.api('demo', 'tickets/update_many.json'), {
      method: 'PUT',
      token: agent,
      body: {
        tickets: [
          { id: a, comment: { body: 'bulk a', public: false }, metadata: { n: 'a' } },
          { id: b, comment: { body: 'bulk b', public: false }, metadata: { n: 'b' } },
        ],
      },
    });
    expect(queued.status).toBe(200);
    await run.sandbox.jobsIdle();
    for (const [id, n] of [
      [a, 'a'],
      [b, 'b'],
    ] as const) {
      const listed = await call(run.api('demo', `tickets/${id}/audits.json`), { token: agent });
      expect(listed.body.audits.at(-1).metadata.custom).toEqual({ n });
    }
  });

  it('keeps no audit for an update that changes nothing, as Zendesk', async () => {
    const id = await newTicket();
    const updated = await call(run.api('demo', `tickets/${id}.json`), {
      method: 'PUT',
      token: agent,
      body: { ticket: { metadata: { only: 'metadata' } } },
    });
    expect(updated.status).toBe(200);
    const listed = await call(run.api('demo', `tickets/${id}/audits.json`), { token: agent });
    expect(listed.body.audits).toHaveLength(1);
  });

  it('refuses more than 1 KB of metadata (422) and applies nothing', async () => {
    const id = await newTicket();
    const refused = await call(run.api('demo', `tickets/${id}.json`), {
      method: 'PUT',
      token: agent,
      body: {
        ticket: { comment: { body: 'x', public: false }, metadata: { big: 'x'.repeat(1100) } },
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.details.metadata[0].description).toMatch(/too large/);
    const comments = await call(run.api('demo', `tickets/${id}/comments.json`), { token: agent });
    expect(comments.body.comments).toHaveLength(1);
  });

  it('pages audits with cursors, oldest first', async () => {
    const id = await newTicket();
    for (let i = 0; i < 4; i++) {
      await call(run.api('demo', `tickets/${id}.json`), {
        method: 'PUT',
        token: agent,
        body: { ticket: { comment: { body: `n${i}`, public: false }, metadata: { i } } },
      });
    }
    const seen: unknown[] = [];
    let url: string | null = run.api('demo', `tickets/${id}/audits.json?page[size]=2`);
    let pages = 0;
    while (url) {
      const page = await call(url, { token: agent });
      expect(page.status).toBe(200);
      seen.push(
        ...page.body.audits.map((a: { metadata: { custom: unknown } }) => a.metadata.custom),
      );
      url = page.body.meta.has_more ? page.body.links.next : null;
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([{}, { i: 0 }, { i: 1 }, { i: 2 }, { i: 3 }]);
  });

  it('needs the global read scope: tickets:read is not enough (403), as Zendesk documents', async () => {
    const id = await newTicket();
    const narrow = run.token(run.demo.agentIds[0], ['tickets:read', 'tickets:write']);
    const refused = await call(run.api('demo', `tickets/${id}/audits.json`), { token: narrow });
    expect(refused.status).toBe(403);
    const other = await call(run.api('demo', 'tickets/999999/audits.json'), { token: agent });
    expect(other.status).toBe(404);
  });

  it('shows the audits in the control API view of a ticket', async () => {
    const id = await newTicket();
    await call(run.api('demo', `tickets/${id}.json`), {
      method: 'PUT',
      token: agent,
      body: { ticket: { comment: { body: 'c', public: false }, metadata: { k: 1 } } },
    });
    const view = await call(`${run.url}/_sandbox/accounts/demo/tickets/${id}`);
    expect(
      view.body.audits.map((a: { metadata: { custom: unknown } }) => a.metadata.custom),
    ).toEqual([{}, { k: 1 }]);
  });
});

describe('the account default locale', () => {
  let run: Running;

  beforeAll(async () => {
    run = await startSandbox();
  });
  afterAll(() => run.close());

  it('marks the default among the account locales, and follows the control API', async () => {
    const admin = run.token(run.demo.adminId);
    const before = await call(run.api('demo', 'locales.json'), { token: admin });
    expect(before.status).toBe(200);
    expect(
      before.body.locales
        .filter((l: { default: boolean }) => l.default)
        .map((l: { locale: string }) => l.locale),
    ).toEqual(['en-US']);

    const set = await call(`${run.url}/_sandbox/accounts/demo/locale`, {
      method: 'PUT',
      body: { locale: 'fr' },
    });
    expect(set.status).toBe(200);
    const after = await call(run.api('demo', 'locales.json'), { token: admin });
    expect(
      after.body.locales
        .filter((l: { default: boolean }) => l.default)
        .map((l: { locale: string }) => l.locale),
    ).toEqual(['fr']);
    expect(after.body.locales.map((l: { locale: string }) => l.locale)).toContain('en-US');

    const unknown = await call(`${run.url}/_sandbox/accounts/demo/locale`, {
      method: 'PUT',
      body: { locale: 'xx' },
    });
    expect(unknown.status).toBe(422);
  });

  it('is read with the global read scope', async () => {
    const narrow = run.token(run.demo.adminId, ['tickets:read']);
    const refused = await call(run.api('demo', 'locales.json'), { token: narrow });
    expect(refused.status).toBe(403);
  });
});
