// A write recognised by its note (an update_many item, or a token without the global `read`
// scope): after a lost answer the writer finds it among the ticket's comments by identity (the
// token's own user, through the API, since the write was sent, exactly the note recorded), never
// by a mark in the note, which carries none. A note someone else writes with the same text is not
// the connector's write.
import { describe, expect, it } from 'vitest';
import { ZendeskRecordNotFoundError } from '@incident-desk/zendesk-api';
import { handleIncidentEvent } from './support/run-incident-event';
import type { SyncDeps } from '../src/sync/sync-deps';
import type { AccountContext } from '../src/accounts/account-context';
import { drainAccountOnce } from '../src/sync/ticket-writes/drain-account';
import { ZENDESK_WRITE_LIMITS } from '../src/sync/ticket-writes/write-budget';
import { startHarness } from './sync-incident-harness';
import { eventually } from './support/eventually';
import { backends } from './support/test-database';
import { startedForTests } from './support/started-for-tests';

/** Anything that looks like a write's reference: a ref line, a UUID. */
const REFERENCE = /ref |incident-desk ·|[0-9a-f]{8}-[0-9a-f]{4}-/;

describe.each(backends)('a write found by its note on %s', (backend) => {
  const h = startedForTests(() => startHarness(backend));
  const deps = (): SyncDeps => ({
    db: h.db,
    unlinkedWaitMs: 10,
    writer: { signal: () => undefined },
  });
  const drain = (ctx: AccountContext) =>
    drainAccountOnce(ctx, h.db, {
      now: () => new Date(),
      limits: ZENDESK_WRITE_LIMITS,
      ignoreReadyAt: true,
    });
  const unwritten = (incidentId: string) =>
    h.db.prisma.pendingTicketChange.count({
      where: { accountId: h.accountId, incidentId, writtenAt: null },
    });
  const narrow = () => h.context({}, { canReadAudits: false });

  /** A ticket with one change waiting whose write never reached Zendesk: the note it carried. */
  async function unsentWrite(ctx: AccountContext) {
    const { incidentId, ticketId } = await h.linkedTicket();
    await handleIncidentEvent(
      deps(),
      ctx,
      h.job('incident.status_changed', { incidentId, status: 'case_building' }),
    );
    let sent: string | undefined;
    const neverSent: typeof fetch = async (_input, init) => {
      const body = JSON.parse(String(init?.body ?? '{}')) as {
        ticket?: { comment?: { body?: string } };
      };
      sent = body.ticket?.comment?.body;
      throw new TypeError('fetch failed');
    };
    expect(await drain({ ...ctx, zendesk: h.zendeskWith(neverSent) })).toMatchObject({
      requests: 1,
      written: 0,
    });
    expect(sent).toMatch(/^\[incident-desk\]/);
    expect(await h.notes(ticketId)).toEqual([]);
    return { incidentId, ticketId, note: sent! };
  }

  /** A client of the account acting as another user (its own OAuth token). */
  function asUser(userId: number) {
    const token = h.zendeskSandbox.issueToken(h.context().subdomain, userId, ['read', 'write']);
    return h.zendeskWith((input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${token}`);
      return fetch(input, { ...init, headers });
    });
  }

  const pasters = [
    {
      who: 'another agent in the workspace',
      paste: (ticketId: number, body: string) =>
        h.zendeskControl('POST', `/tickets/${ticketId}/comments`, {
          author_id: h.seed.agentIds[0],
          body,
          public: false,
        }),
    },
    {
      // the connector's user may be a human admin: a note typed in the workspace is not an API write
      who: "the connector's own user in the workspace",
      paste: (ticketId: number, body: string) =>
        h.zendeskControl('POST', `/tickets/${ticketId}/comments`, {
          author_id: h.seed.adminId,
          body,
          public: false,
        }),
    },
    {
      who: 'another user through the API',
      paste: (ticketId: number, body: string) =>
        asUser(h.seed.agentIds[1]).tickets.update(ticketId, { comment: { body, public: false } }),
    },
  ];

  it.each(pasters)(
    'a note with the same text written by $who is not taken for the write: it is written',
    async ({ paste }) => {
      const ctx = narrow();
      const { incidentId, ticketId, note } = await unsentWrite(ctx);
      await paste(ticketId, note);
      h.zendeskCalls.length = 0;
      expect(await drain(ctx)).toMatchObject({ written: 1 });
      expect(h.zendeskCalls).toContain(`PUT /api/v2/tickets/${ticketId}.json`);
      // the pasted one and the connector's own
      expect(await h.notes(ticketId)).toEqual([note, note]);
      expect(await h.eventWrites(ticketId)).toHaveLength(1);
      expect(await unwritten(incidentId)).toBe(0);
    },
  );

  it("the connector's own note from before the write was sent is another write's: it is written", async () => {
    const ctx = narrow();
    const { incidentId, ticketId, note } = await unsentWrite(ctx);
    // the same text by the token's user through the API, but made before this write went out
    await h.zendesk.tickets.update(ticketId, { comment: { body: note, public: false } });
    await h.db.prisma.pendingTicketChange.updateMany({
      where: { accountId: h.accountId, incidentId },
      data: { writeSentAt: new Date(Date.now() + 5 * 60_000) },
    });
    expect(await drain(ctx)).toMatchObject({ written: 1 });
    expect(await h.notes(ticketId)).toEqual([note, note]);
    expect(await unwritten(incidentId)).toBe(0);
  });

  it('a bulk write whose job status is gone is found by its note, with the read scope too', async () => {
    const tickets = [await h.linkedTicket(), await h.linkedTicket()];
    for (const { incidentId } of tickets)
      await handleIncidentEvent(
        deps(),
        h.context(),
        h.job('incident.status_changed', { incidentId, status: 'blocklisted' }),
      );
    expect(await drain(h.context())).toMatchObject({ written: 0, requests: 1 });
    // the job ran; its status is no longer kept (a day later): the notes are looked for
    const ctx = h.context();
    const gone = Object.create(ctx.zendesk.jobStatuses, {
      show: {
        value: async () => {
          throw new ZendeskRecordNotFoundError({
            status: 404,
            headers: new Headers(),
            body: { error: 'RecordNotFound' },
            method: 'GET',
            path: '/api/v2/job_statuses',
            error: 'RecordNotFound',
          });
        },
      },
    }) as typeof ctx.zendesk.jobStatuses;
    const zendesk = Object.create(ctx.zendesk, {
      jobStatuses: { value: gone },
    }) as typeof ctx.zendesk;
    await eventually('the job wrote both notes', async () => {
      const notes = await Promise.all(tickets.map(({ ticketId }) => h.notes(ticketId)));
      return notes.every((each) => each.length === 1) ? true : undefined;
    });
    await drain({ ...ctx, zendesk }); // the job's status: gone
    h.zendeskCalls.length = 0;
    await drain(ctx);
    expect(h.zendeskCalls.filter((call) => call.startsWith('PUT'))).toEqual([]);
    for (const { incidentId, ticketId } of tickets) {
      const [note, ...others] = await h.notes(ticketId);
      expect(others).toEqual([]);
      expect(note).not.toMatch(REFERENCE);
      expect(await unwritten(incidentId)).toBe(0);
    }
  });

  it('a write an earlier version sent is still found by the reference line its note ends with', async () => {
    const ctx = narrow();
    const { incidentId, ticketId, note } = await unsentWrite(ctx);
    const row = await h.db.prisma.pendingTicketChange.findFirstOrThrow({
      where: { accountId: h.accountId, incidentId },
    });
    const short = row.writeRef!.replace(/-/g, '').slice(0, 8);
    await h.zendesk.tickets.update(ticketId, {
      comment: { body: `${note}\n\nincident-desk · ref ${short}`, public: false },
    });
    await h.db.prisma.pendingTicketChange.updateMany({
      where: { accountId: h.accountId, incidentId },
      data: { writeNoteDigest: null, writeSentAt: null },
    });
    h.zendeskCalls.length = 0;
    await drain(ctx);
    expect(h.zendeskCalls.filter((call) => call.startsWith('PUT'))).toEqual([]);
    expect(await h.notes(ticketId)).toHaveLength(1);
    expect(await unwritten(incidentId)).toBe(0);
  });

  it.each(['en', 'fr'] as const)(
    'a note in %s carries no reference line, with or without the read scope',
    async (noteLocale) => {
      for (const canReadAudits of [true, false]) {
        const { incidentId, ticketId } = await h.linkedTicket();
        const ctx = h.context({}, { noteLocale, canReadAudits });
        await handleIncidentEvent(
          deps(),
          ctx,
          h.job('incident.status_changed', { incidentId, status: 'case_building' }),
        );
        expect(await drain(ctx)).toMatchObject({ written: 1 });
        const [note] = await h.notes(ticketId);
        expect(note).not.toMatch(REFERENCE);
        const row = await h.db.prisma.pendingTicketChange.findFirstOrThrow({
          where: { accountId: h.accountId, incidentId },
        });
        expect(note).not.toContain(row.writeRef!.replace(/-/g, '').slice(0, 8));
      }
    },
  );
});
