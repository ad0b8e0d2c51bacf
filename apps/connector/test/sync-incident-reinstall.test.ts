// One incident, every id form: a report answers with an `inc_` reference (the ticket's Incident ID
// field holds it), events may carry the incident's list id. A Disconnect deletes the account's
// links; after a new install the incident's next event, in either form, must land on its old ticket.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { IncidentEventJob } from '../src/jobs/incident-event-job';
import { reportThreat } from '../src/sync/ticket-events/report-flow';
import { handleIncidentEvent } from './support/run-incident-event';
import { startHarness } from './sync-incident-harness';
import { backends } from './support/test-database';
import { startedForTests } from './support/started-for-tests';

const SEARCH = 'GET /api/v2/search.json';

describe.each(backends)('one incident under either id, across a reinstall, on %s', (backend) => {
  const h = startedForTests(() => startHarness(backend));
  const deps = () => ({ db: h.db, unlinkedWaitMs: 0, pollIntervalMs: 10 });

  /** A new install of the same Zendesk account: a new account row, nothing linked yet. */
  async function install() {
    const accountId = randomUUID();
    await h.db.prisma.account.create({
      data: { id: accountId, zendeskSubdomain: `reinstall${h.uid()}` },
    });
    return {
      accountId,
      ctx: { ...h.context(), accountId },
      job: (incidentId: string, message: string): IncidentEventJob => ({
        ...h.job('incident.history_created', { incidentId, historyEntry: { message } }),
        accountId,
      }),
      disconnect: () => h.db.prisma.account.delete({ where: { id: accountId } }),
    };
  }

  /** Ticket #1 reported under `first`: its field holds the report's reference, events the list id. */
  async function reportedTicket(first: Awaited<ReturnType<typeof install>>) {
    const created = await h.zendesk.tickets.create({
      subject: 'Phishing site',
      comment: { body: 'Please take this down.' },
      custom_fields: [
        { id: h.seed.threatFieldId, value: `https://reinstall${h.uid()}.example.org/login` },
      ],
      tags: ['incident_submit'],
    });
    const ticketId = created.ticket.id;
    const outcome = await reportThreat({ db: h.db }, first.ctx, ticketId, 'takedown');
    expect(outcome.status).toBe('applied');
    const link = await h.db.prisma.incidentLink.findFirstOrThrow({
      where: { accountId: first.accountId, ticketId: BigInt(ticketId) },
    });
    const reportRef = link.reportRef!;
    const listId = link.incidentId;
    expect(reportRef).not.toBe(listId);
    expect(h.fieldValue(await h.ticket(ticketId), h.seed.incidentFieldId)).toBe(reportRef);
    return { ticketId, reportRef, listId };
  }

  const ticketsOf = async (ids: readonly string[]) =>
    (await h.allTickets()).filter((ticket) =>
      ids.includes(String(h.fieldValue(ticket, h.seed.incidentFieldId))),
    );

  it('after Disconnect and a new install, an event under the list id is noted on the reported ticket; no ticket opens', async () => {
    const first = await install();
    const { ticketId, reportRef, listId } = await reportedTicket(first);
    const notesBefore = (await h.notes(ticketId)).length;
    await first.disconnect();

    const second = await install();
    const outcome = await handleIncidentEvent(
      deps(),
      second.ctx,
      second.job(listId, 'Analyst moved the incident.'),
    );
    expect(outcome.status).toBe('applied');
    const tickets = await ticketsOf([listId, reportRef]);
    expect(tickets.map((ticket) => ticket.id)).toEqual([ticketId]);
    expect(tickets[0]!.tags).not.toContain('incident_detected');
    expect(await h.notes(ticketId)).toHaveLength(notesBefore + 1);
    const link = await h.db.prisma.incidentLink.findFirstOrThrow({
      where: { accountId: second.accountId },
    });
    expect({ ...link, ticketId: Number(link.ticketId) }).toMatchObject({
      ticketId,
      incidentId: listId,
      reportRef,
    });
    // the new install has no record of what the old one forwarded: the ticket's comments so far
    // count as known, so a comment trigger forwards only later replies
    const known = await h.db.prisma.forwardedComment.findMany({
      where: { accountId: second.accountId, ticketId: BigInt(ticketId) },
    });
    expect(known.length).toBeGreaterThan(0);
    expect(known.every((row) => row.status === 'skipped' && row.incidentId === listId)).toBe(true);

    // the link knows both forms now: the reference finds it without a search
    h.zendeskCalls.length = 0;
    await handleIncidentEvent(deps(), second.ctx, second.job(reportRef, 'Registrar contacted.'));
    expect(h.zendeskCalls).not.toContain(SEARCH);
    expect(await h.notes(ticketId)).toHaveLength(notesBefore + 2);
  });

  it('after Disconnect and a new install, an event under the inc_ reference is noted on the reported ticket, and later list-id events follow', async () => {
    const first = await install();
    const { ticketId, reportRef, listId } = await reportedTicket(first);
    const notesBefore = (await h.notes(ticketId)).length;
    await first.disconnect();

    const second = await install();
    const outcome = await handleIncidentEvent(
      deps(),
      second.ctx,
      second.job(reportRef, 'Analyst moved the incident.'),
    );
    expect(outcome.status).toBe('applied');
    expect((await ticketsOf([listId, reportRef])).map((ticket) => ticket.id)).toEqual([ticketId]);
    expect(await h.notes(ticketId)).toHaveLength(notesBefore + 1);
    // the recovery learned the list id from the detail: the next event under it needs no search
    h.zendeskCalls.length = 0;
    await handleIncidentEvent(deps(), second.ctx, second.job(listId, 'Registrar contacted.'));
    expect(h.zendeskCalls).not.toContain(SEARCH);
    expect((await ticketsOf([listId, reportRef])).map((ticket) => ticket.id)).toEqual([ticketId]);
    expect(await h.notes(ticketId)).toHaveLength(notesBefore + 2);
  });

  it('a linked incident is found under either id without a Zendesk search', async () => {
    const install1 = await install();
    const { ticketId, reportRef, listId } = await reportedTicket(install1);
    const notesBefore = (await h.notes(ticketId)).length;
    h.zendeskCalls.length = 0;
    for (const id of [listId, reportRef]) {
      const outcome = await handleIncidentEvent(
        deps(),
        install1.ctx,
        install1.job(id, `Noted under ${id}.`),
      );
      expect(outcome.status).toBe('applied');
    }
    expect(h.zendeskCalls).not.toContain(SEARCH);
    expect(await h.notes(ticketId)).toHaveLength(notesBefore + 2);
    expect((await ticketsOf([listId, reportRef])).map((ticket) => ticket.id)).toEqual([ticketId]);
  });

  it('a ticket whose Incident ID the service does not know is left alone by the new install', async () => {
    const first = await install();
    const stray = await h.zendesk.tickets.create({
      subject: 'Linked by hand',
      comment: { body: 'typed by an agent' },
      custom_fields: [{ id: h.seed.incidentFieldId, value: `unknown${h.uid()}` }],
      tags: ['incident_linked'],
    });
    const { listId } = await reportedTicket(first);
    await first.disconnect();

    const second = await install();
    await handleIncidentEvent(deps(), second.ctx, second.job(listId, 'Analyst moved it.'));
    const links = await h.db.prisma.incidentLink.findMany({
      where: { accountId: second.accountId },
    });
    expect(links.map((link) => Number(link.ticketId))).not.toContain(stray.ticket.id);
    // once per install: the next unlinked event searches its own ids only
    h.zendeskCalls.length = 0;
    await handleIncidentEvent(deps(), second.ctx, second.job(`fresh${h.uid()}`, 'New.'));
    expect(h.zendeskCalls.filter((call) => call === SEARCH)).toHaveLength(1);
  });
});
