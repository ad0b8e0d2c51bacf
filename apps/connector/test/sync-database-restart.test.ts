// A database restart while a call to the incident service is under way: the write that settles the
// call waits for the database, so the call is neither lost (a claim left behind reads as sent) nor
// made twice. The outage is injected into the writes named (support/database-outage.ts).
import type { TDatabase } from '@incident-desk/db';
import { describe, expect, it } from 'vitest';
import { handleTicketEvent } from '../src/sync/ticket-events';
import { withOutage, type OutageRule } from './support/database-outage';
import { backends } from './support/test-database';
import { startTicketSyncHarness, SYNC_ACCOUNT } from './support/sync-ticket-harness';
import { startedForTests } from './support/started-for-tests';

describe.each(backends)(
  'a database restart around a call to the incident service, on %s',
  (backend) => {
    const h = startedForTests(() => startTicketSyncHarness(backend));
    let counter = 0;
    const tag = backend === 'pglite' ? 'a' : 'b';

    const outage = (...rules: OutageRule[]) => withOutage(h.db, rules);
    const incident = async (id: string) => (await h.incidents()).find((i) => i.id === id)!;
    const unavailable = (path: string) =>
      h.incidentFault({ method: 'POST', path, kind: 'status', status: 503, times: 1 });

    async function linkedTicket() {
      counter += 1;
      const ticketId = await h.createTicket({
        threat: `https://restart${counter}-${tag}.restart-phish.test/`,
      });
      const outcome = await handleTicketEvent(
        { db: h.db },
        h.ctx,
        h.job({ kind: 'report', ticketId, mode: 'monitor' }),
      );
      expect(outcome.status).toBe('applied');
      const link = await h.db.prisma.incidentLink.findUniqueOrThrow({
        where: { accountId_ticketId: { accountId: SYNC_ACCOUNT, ticketId: BigInt(ticketId) } },
      });
      return { ticketId, incidentId: link.incidentId };
    }

    describe('a takedown request tag', () => {
      async function requested() {
        const linked = await linkedTicket();
        await h.addTags(linked.ticketId, ['incident_request_takedown']);
        const receiptId = `receipt-restart-${backend}-${linked.ticketId}`;
        return {
          ...linked,
          receiptId,
          job: h.job({ kind: 'action', ticketId: linked.ticketId, action: 'tkd' }),
        };
      }

      it('sent, then the database is away when it is recorded as sent: recorded once it is back', async () => {
        const { ticketId, incidentId, receiptId, job } = await requested();
        const db = outage({ model: 'IncidentActionRequest', operation: 'update', times: 2 });
        expect((await handleTicketEvent({ db, receiptId }, h.ctx, job)).status).toBe('applied');
        expect(db.failed()).toBe(2);
        expect((await incident(incidentId)).status).toBe('case_building');
        expect(await h.notesContaining(ticketId, 'Takedown requested.')).toHaveLength(1);
        expect(await h.notesContaining(ticketId, 'may or may not')).toHaveLength(0);
        const request = await h.db.prisma.incidentActionRequest.findUniqueOrThrow({
          where: { accountId_receiptId: { accountId: SYNC_ACCOUNT, receiptId } },
        });
        expect(request.state).toBe('sent');
      });

      it('declined (503), then the database is away when the request is released: the retry sends it', async () => {
        const { ticketId, incidentId, receiptId, job } = await requested();
        await unavailable('/v1/incident/:id/tkd');
        const db = outage({ model: 'IncidentActionRequest', operation: 'deleteMany', times: 2 });
        await expect(handleTicketEvent({ db, receiptId }, h.ctx, job)).rejects.toThrow('503');
        expect(db.failed()).toBe(2);
        expect((await incident(incidentId)).status).toBe('pending_review');

        expect((await handleTicketEvent({ db: h.db, receiptId }, h.ctx, job)).status).toBe(
          'applied',
        );
        expect((await incident(incidentId)).status).toBe('case_building');
        expect(await h.notesContaining(ticketId, 'may or may not')).toHaveLength(0);
      });

      it('the database is away when the call is marked under way: the request still goes out, and its answer is the outcome', async () => {
        const { ticketId, incidentId, receiptId, job } = await requested();
        const db = outage({ model: 'EchoLedgerEntry', operation: 'create', times: 1 });
        expect((await handleTicketEvent({ db, receiptId }, h.ctx, job)).status).toBe('applied');
        expect(db.failed()).toBe(1);
        expect((await incident(incidentId)).status).toBe('case_building');
        expect(await h.notesContaining(ticketId, 'failed')).toHaveLength(0);
      });
    });

    describe('a public agent reply', () => {
      async function replied(body: string) {
        const linked = await linkedTicket();
        const commentId = await h.addComment(linked.ticketId, {
          authorId: h.demo.agentIds[1]!,
          body,
          public: true,
        });
        return { ...linked, commentId };
      }
      const forward = (db: TDatabase, ticketId: number) =>
        handleTicketEvent({ db }, h.ctx, h.job({ kind: 'comment', ticketId }));
      const sentComments = async (incidentId: string) =>
        (await incident(incidentId)).comments.slice(1).map((c) => c.comment);
      const recordOf = (commentId: number) =>
        h.db.prisma.forwardedComment.findUnique({
          where: { accountId_commentId: { accountId: SYNC_ACCOUNT, commentId: BigInt(commentId) } },
        });

      it('forwarded, then the database is away when it is recorded: recorded once it is back, never resent', async () => {
        const { ticketId, incidentId, commentId } = await replied('Forwarded across a restart.');
        const db = outage({ model: 'ForwardedComment', operation: 'update', times: 2 });
        expect(await forward(db, ticketId)).toMatchObject({ status: 'applied' });
        expect(db.failed()).toBe(2);
        expect((await recordOf(commentId))?.status).toBe('forwarded');
        expect((await forward(h.db, ticketId)).status).toBe('skipped');
        expect(await sentComments(incidentId)).toEqual(['Forwarded across a restart.']);
      });

      it('the database is away while the reply is claimed: nothing is claimed, and the retry forwards it', async () => {
        const { ticketId, incidentId, commentId } = await replied('Claimed across a restart.');
        const db = outage({ model: 'EchoLedgerEntry', operation: 'create', times: 1 });
        await expect(forward(db, ticketId)).rejects.toThrow("Can't reach database server");
        expect(await recordOf(commentId)).toBeNull();
        expect(await forward(h.db, ticketId)).toMatchObject({ status: 'applied' });
        expect(await sentComments(incidentId)).toEqual(['Claimed across a restart.']);
      });

      it('declined (503), then the database is away when the claim is released: the retry forwards it once', async () => {
        const { ticketId, incidentId, commentId } = await replied('Released across a restart.');
        await unavailable('/v1/incident/:id/comment');
        const db = outage({ model: 'ForwardedComment', operation: 'deleteMany', times: 2 });
        await expect(forward(db, ticketId)).rejects.toThrow('503');
        expect(db.failed()).toBe(2);
        expect(await recordOf(commentId)).toBeNull();
        expect(await forward(h.db, ticketId)).toMatchObject({ status: 'applied' });
        expect(await sentComments(incidentId)).toEqual(['Released across a restart.']);
      });
    });

    describe('a report', () => {
      const report = (db: TDatabase, ticketId: number) =>
        handleTicketEvent({ db }, h.ctx, h.job({ kind: 'report', ticketId, mode: 'takedown' }));

      it('answered, then the database is away when the answer is recorded: linked once it is back', async () => {
        const threat = `https://answered-${tag}.restart-report.test/`;
        const ticketId = await h.createTicket({ threat });
        const db = outage({ model: 'ReportAttempt', operation: 'update', times: 2 });
        expect((await report(db, ticketId)).status).toBe('applied');
        expect(db.failed()).toBe(2);
        expect(await h.incidentsWithSubject(threat)).toHaveLength(1);
        const { ticket } = await h.readTicket(ticketId);
        expect(ticket.tags).toContain('incident_linked');
        expect(ticket.tags).not.toContain('incident_unlinked');
      });

      it('declined (503), then the database is away when the claim is dropped: the retry reports it', async () => {
        const threat = `https://declined-${tag}.restart-report.test/`;
        const ticketId = await h.createTicket({ threat });
        await unavailable('/v1/incident/tkd');
        const db = outage({ model: 'ReportAttempt', operation: 'deleteMany', times: 2 });
        await expect(report(db, ticketId)).rejects.toThrow('503');
        expect(db.failed()).toBe(2);
        expect((await report(h.db, ticketId)).status).toBe('applied');
        expect(await h.incidentsWithSubject(threat)).toHaveLength(1);
        expect((await h.readTicket(ticketId)).ticket.tags).toContain('incident_linked');
      });
    });
  },
);
