import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { normalizeThreat } from '@incident-desk/threat-text';
import { JobDeferral } from '../src/jobs/job-deferral';
import { handleIncidentEvent, handleOnce } from './support/run-incident-event';
import { handleTicketEvent } from '../src/sync/ticket-events';
import { reportThreat } from '../src/sync/ticket-events/report-flow';
import { saveRecoveredLink } from '../src/sync/incident-events/incident-link-store';
import { saveLinkUnderClaim } from '../src/sync/incident-link-claim';
import { startHarness } from './sync-incident-harness';
import { eventually } from './support/eventually';
import { backends } from './support/test-database';
import { withOutage } from './support/database-outage';
import { startedForTests } from './support/started-for-tests';

const HOSTILE_URL = 'https://evil.example.com/<script>alert(1)</script>';

describe.each(backends)('incident events for unlinked incidents on %s', (backend) => {
  const h = startedForTests(() => startHarness(backend));
  const deps = () => ({ db: h.db, unlinkedWaitMs: 20, pollIntervalMs: 10 });

  const detectedTickets = async (incidentId: string) =>
    (await h.allTickets()).filter(
      (ticket) =>
        ticket.tags.includes('incident_detected') &&
        h.fieldValue(ticket, h.seed.incidentFieldId) === incidentId,
    );

  it('opens exactly one ticket from the incident detail, defanged, and links it', async () => {
    const incident = await h.seedIncident({
      incidentType: 'url',
      url: HOSTILE_URL,
      status: 'takedown_in_progress',
      hostingProvider: 'Bad Hosting Ltd',
      registrar: { name: 'Registrar Inc', difficulty: 'hard' },
      threatTaxonomy: { name: 'Credential phishing', description: '' },
    });
    await h.control(`/_sandbox/incidents/${incident.id}/blocklists`, {
      authority: 'SafeBrowse',
      type: 'blocklist',
      status: 'listed',
      listedAt: '2030-01-01T00:00:00Z',
      link: 'https://lists.example.org/entry?host=evil.example.com',
    });
    const ctx = h.context({ newTicketGroupId: null });
    const job = h.job('incident.status_changed', {
      incidentId: incident.id,
      status: 'takedown_in_progress',
    });
    const outcome = await handleIncidentEvent(deps(), ctx, job);
    expect(outcome.status).toBe('applied');

    const [ticket, ...others] = await detectedTickets(incident.id);
    expect(others).toHaveLength(0);
    expect(ticket!.subject).toBe(
      '[incident-desk] takedown_in_progress - hxxps[:]//evil[.]example[.]com/<script>alert(1)</script>',
    );
    expect(ticket!.subject).not.toContain('https://');
    expect(ticket!.tags).toEqual(expect.arrayContaining(['incident_linked', 'incident_detected']));
    expect(ticket!.type).toBe('incident');
    expect(h.fieldValue(ticket!, h.seed.threatFieldId)).toBe(HOSTILE_URL); // raw, for reporting
    expect(h.fieldValue(ticket!, h.seed.statusFieldId)).toBe(
      'incident_status_takedown_in_progress',
    );

    const [note, ...moreNotes] = await h.notes(ticket!.id);
    expect(moreNotes).toHaveLength(0);
    expect(note).toContain('Status: takedown_in_progress');
    expect(note).toContain('Taxonomy: Credential phishing');
    expect(note).toContain('Registrar: Registrar Inc (takedown difficulty hard)');
    expect(note).toContain('Hosting provider: Bad Hosting Ltd');
    expect(note).toContain(
      '- SafeBrowse, blocklist: listed since 2030-01-01T00:00:00Z - hxxps[:]//lists[.]example[.]org/entry?host=evil[.]example[.]com',
    );
    expect(note).toContain('Insights: none captured yet');
    expect(note).not.toContain('https://');
    // the incident and the event are named in the create's audit, not in the note
    expect(note).not.toContain(incident.id);
    expect(note).not.toContain(job.event.id);
    expect(await h.eventWrites(ticket!.id)).toEqual([[job.event.id]]);

    const link = await h.db.prisma.incidentLink.findFirstOrThrow({
      where: { accountId: h.accountId, incidentId: incident.id },
    });
    expect(Number(link.ticketId)).toBe(ticket!.id);
    // the threat is kept on the link, normalised, for the duplicate check before a report
    expect(link.threatValue).toBe(normalizeThreat(HOSTILE_URL));

    // the same job again, and a later event: both land on that ticket, none opens another
    expect((await handleIncidentEvent(deps(), ctx, job)).status).toBe('skipped');
    await handleIncidentEvent(
      deps(),
      ctx,
      h.job('incident.history_created', {
        incidentId: incident.id,
        historyEntry: { message: 'Registrar contacted.' },
      }),
    );
    expect(await detectedTickets(incident.id)).toHaveLength(1);
    expect(await h.notes(ticket!.id)).toHaveLength(2);
  });

  it('uses fallbacks when the detail carries nothing optional, and the event status when the detail is missing', async () => {
    const incident = await h.seedIncident({
      incidentType: 'email',
      subject: 'ceo@evil.example.net',
    });
    const job = h.job('incident.created', { incidentId: incident.id });
    // a group Zendesk rejects: a permanent failure, and the claim is released for a later retry
    const rejected = await handleIncidentEvent(deps(), h.context({ newTicketGroupId: 77 }), job);
    expect(rejected.status).toBe('failed_permanently');
    expect(
      await h.db.prisma.incidentLink.count({
        where: { accountId: h.accountId, incidentId: incident.id },
      }),
    ).toBe(0);

    await handleIncidentEvent(deps(), h.context({ newTicketGroupId: h.groupId }), job);
    const [ticket] = await detectedTickets(incident.id);
    expect(ticket!.subject).toMatch(/^\[incident-desk\] \w+ - ceo\[@\]evil\[\.\]example\[\.\]net$/);
    expect(ticket!.group_id).toBe(h.groupId);
    const [note] = await h.notes(ticket!.id);
    expect(note).toContain('Registrar: not available');
    expect(note).toContain('Hosting provider: not available');
    expect(note).toContain('Blocklist listings: none submitted');

    // an id the incident service does not know (404): the ticket still opens from the event
    const unknownId = `ghost${h.uid()}`;
    const outcome = await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.status_changed', { incidentId: unknownId, status: 'closed' }),
    );
    expect(outcome.status).toBe('applied');
    const [ghost] = await detectedTickets(unknownId);
    expect(ghost!.subject).toBe('[incident-desk] closed - unknown threat');
    expect((await h.notes(ghost!.id))[0]).toContain('Its details could not be read');
  });

  it('an action_required or history_created that opens the ticket is applied to it as well', async () => {
    const waiting = await h.seedIncident({ url: `https://waiting${h.uid()}.example.org/` });
    const ctx = h.context();
    const opening = h.job('incident.action_required', {
      incidentId: waiting.id,
      waitForClient: 'Upload the trademark certificate',
    });
    const opened = await handleIncidentEvent(deps(), ctx, opening);
    expect(opened.status).toBe('applied');
    const [ticket] = await detectedTickets(waiting.id);
    const notes = await h.notes(ticket!.id);
    expect(notes).toHaveLength(2);
    // the first note's audit says which event opened the ticket; only the event's own write
    // names it among the events it applied (once)
    const audits = (await h.zendesk.tickets.audits.list(ticket!.id)).getItems();
    expect(audits[0]?.metadata?.custom).toEqual({
      incident_desk: { opened_by: opening.event.id },
    });
    expect(await h.eventWrites(ticket!.id)).toEqual([[opening.event.id]]);
    expect(notes[0]).toContain('Status:');
    expect(notes[1]).toContain('Request: Upload the trademark certificate');
    expect((await h.ticket(ticket!.id)).status).toBe('open');

    const noted = await h.seedIncident({ url: `https://noted${h.uid()}.example.org/` });
    await handleIncidentEvent(
      deps(),
      ctx,
      h.job('incident.history_created', {
        incidentId: noted.id,
        historyEntry: { message: 'Registrar acknowledged the abuse report' },
      }),
    );
    const [other] = await detectedTickets(noted.id);
    const otherNotes = await h.notes(other!.id);
    expect(otherNotes).toHaveLength(2);
    expect(otherNotes[1]).toContain('Registrar acknowledged the abuse report');
  });

  it('an incident-service outage while opening releases the claim; the retry opens the ticket', async () => {
    const incident = await h.seedIncident({ url: `https://outage${h.uid()}.example.org/` });
    await h.control('/_sandbox/faults', {
      method: 'GET',
      path: `/v1/incident/${incident.id}`,
      kind: 'status',
      status: 503,
      times: 1,
    });
    const job = h.job('incident.created', { incidentId: incident.id });
    await expect(handleIncidentEvent(deps(), h.context(), job)).rejects.toThrow();
    expect(
      await h.db.prisma.incidentLink.count({
        where: { accountId: h.accountId, incidentId: incident.id },
      }),
    ).toBe(0);
    expect(await detectedTickets(incident.id)).toHaveLength(0);
    expect((await handleIncidentEvent(deps(), h.context(), job)).status).toBe('applied');
    expect(await detectedTickets(incident.id)).toHaveLength(1);
  });

  it('the recovery search finds the ticket that carries the incident id and links it instead of opening one', async () => {
    const incidentId = `rec${h.uid()}`;
    const created = await h.zendesk.tickets.create({
      subject: 'Reported before the link table knew it',
      comment: { body: 'report' },
      custom_fields: [{ id: h.seed.incidentFieldId, value: incidentId }],
    });
    const before = (await h.allTickets()).length;
    const outcome = await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.history_created', {
        incidentId: incidentId,
        historyEntry: { message: 'Registrar contacted.' },
      }),
    );
    expect(outcome.status).toBe('applied');
    expect((await h.allTickets()).length).toBe(before);
    const link = await h.db.prisma.incidentLink.findFirstOrThrow({
      where: { accountId: h.accountId, incidentId },
    });
    expect(Number(link.ticketId)).toBe(created.ticket.id);
    expect(await h.notes(created.ticket.id)).toHaveLength(1);
  });

  it('a recovered ticket ends like a reported one: tagged incident_linked, later agent replies forwarded', async () => {
    const incident = await h.seedIncident({ url: `https://recovered${h.uid()}.example.org/` });
    const created = await h.zendesk.tickets.create({
      subject: 'Reported before the link table knew it',
      comment: { body: 'the original report' },
      custom_fields: [{ id: h.seed.incidentFieldId, value: incident.id }],
      tags: ['incident_unlinked'],
    });
    const ticketId = created.ticket.id;
    const job = h.job('incident.history_created', {
      incidentId: incident.id,
      historyEntry: { message: 'Registrar contacted.' },
    });
    // the tagging update fails after the link was saved: the retry must still tag the ticket
    const refusedFrom = new Date();
    await h.zendeskFault({
      method: 'PUT',
      path: `/api/v2/tickets/${ticketId}.json`,
      kind: 'error',
      status: 503,
      times: 1,
    });
    await expect(handleIncidentEvent(deps(), h.context(), job)).rejects.toThrow();
    const outcome = await handleIncidentEvent(deps(), h.context(), job);
    expect(outcome.status).toBe('applied');
    const ticket = await h.ticket(ticketId);
    expect(ticket.tags).toContain('incident_linked');
    expect(ticket.tags).not.toContain('incident_unlinked');
    // every request was counted in the account's shared budget (the refused tagging, the tagging,
    // and the event's note, written by the drain), only the two Zendesk applied against the ticket
    expect(
      await h.db.prisma.ticketWriteLog.count({
        where: { accountId: h.accountId, ticketId: BigInt(ticketId) },
      }),
    ).toBe(2);
    expect(
      await h.db.prisma.ticketWriteLog.count({
        where: { accountId: h.accountId, ticketId: null, sentAt: { gte: refusedFrom } },
      }),
    ).toBe(1);

    // the comment trigger now fires for agent replies, and only the new one reaches the incident
    await h.zendesk.tickets.update(ticketId, {
      comment: { body: 'Recovered and replying.', public: true, author_id: h.seed.agentIds[0] },
    });
    const forwarded = await handleTicketEvent({ db: h.db }, h.context(), {
      accountId: h.accountId,
      receivedAt: new Date().toISOString(),
      body: { kind: 'comment', ticketId },
    });
    expect(forwarded).toMatchObject({ status: 'applied', detail: 'forwarded 1 comment' });
    const detail = await h.context().incidents().incidents.retrieve(incident.id);
    expect(detail.history.map((entry) => entry.message)).toContain(
      'Comment: Recovered and replying.',
    );
    expect(detail.history.map((entry) => entry.message)).not.toContain(
      'Comment: the original report',
    );
  });

  it('a recovered ticket whose tagging is put off (writes paused): the link is forgotten and the next run marks it', async () => {
    const incident = await h.seedIncident({ url: `https://pausedrecovery${h.uid()}.example.org/` });
    const created = await h.zendesk.tickets.create({
      subject: 'Recovered while writes are paused',
      comment: { body: 'the original report' },
      custom_fields: [{ id: h.seed.incidentFieldId, value: incident.id }],
      tags: ['incident_unlinked'],
    });
    const ticketId = created.ticket.id;
    const job = h.job('incident.history_created', {
      incidentId: incident.id,
      historyEntry: { message: 'Registrar contacted.' },
    });
    await h.db.prisma.ticketWritePause.create({
      data: { accountId: h.accountId, pausedUntil: new Date(Date.now() + 60_000) },
    });
    try {
      // no unlinked wait: what defers it now is the paused account
      await expect(
        handleOnce({ ...deps(), unlinkedWaitMs: 0 }, h.context(), job),
      ).rejects.toMatchObject({ name: 'TicketWriteDeferred' });
      expect(await h.db.prisma.incidentLink.count({ where: { incidentId: incident.id } })).toBe(0);
      expect((await h.ticket(ticketId)).tags).not.toContain('incident_linked');
    } finally {
      await h.db.prisma.ticketWritePause.deleteMany({ where: { accountId: h.accountId } });
    }
    expect((await handleIncidentEvent(deps(), h.context(), job)).status).toBe('applied');
    const ticket = await h.ticket(ticketId);
    expect(ticket.tags).toContain('incident_linked');
    expect(ticket.tags).not.toContain('incident_unlinked');
  });

  it('a report whose detail read takes 6 s keeps incident.created from opening a second ticket', async () => {
    const url = `https://slowreport${h.uid()}.example.org/login`;
    const created = await h.zendesk.tickets.create({
      subject: 'Phishing site',
      comment: { body: 'Please take this down.' },
      custom_fields: [{ id: h.seed.threatFieldId, value: url }],
      tags: ['incident_submit'],
    });
    const ticketId = created.ticket.id;
    const fault = (await h.control('/_sandbox/faults', {
      method: 'GET',
      path: '/v1/incident/:id',
      kind: 'latency',
      latencyMs: 6_000,
    })) as { id: string };
    try {
      const reporting = reportThreat({ db: h.db }, h.context(), ticketId, 'takedown');
      // the service has the incident (and announces it) while the report still reads its detail
      const listId = await eventually(
        'the reported incident at the service',
        async () => {
          const state = (await (await fetch(`${h.incidentUrl}/_sandbox/state`)).json()) as {
            incidents: { id: string; url?: string }[];
          };
          return state.incidents.find((incident) => incident.url === url)?.id;
        },
        { intervalMs: 50 },
      );
      const event = handleIncidentEvent(
        deps(),
        h.context(),
        h.job('incident.created', { incidentId: listId }),
      );
      expect((await reporting).status).toBe('applied');
      expect(await event).toMatchObject({ status: 'skipped' });
      expect(await detectedTickets(listId!)).toHaveLength(0);
      const ticket = await h.ticket(ticketId);
      expect(ticket.tags).toContain('incident_linked');
      expect(ticket.tags).not.toContain('incident_unlinked');
      const link = await h.db.prisma.incidentLink.findFirstOrThrow({
        where: { accountId: h.accountId, incidentId: listId! },
      });
      expect(Number(link.ticketId)).toBe(ticketId);
    } finally {
      await fetch(`${h.incidentUrl}/_sandbox/faults/${fault.id}`, { method: 'DELETE' });
    }
  });

  it('a link saved while the event waits is used: no search, no new ticket', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    const link = await h.db.prisma.incidentLink.findFirstOrThrow({
      where: { accountId: h.accountId, incidentId },
    });
    await h.db.prisma.incidentLink.delete({ where: { id: link.id } });
    h.zendeskCalls.length = 0;
    // a wait longer than the test: the event is still waiting when the link is saved
    const waiting = { ...deps(), unlinkedWaitMs: 3_600_000 };
    const job = h.job('incident.history_created', {
      incidentId: incidentId,
      historyEntry: { message: 'Registrar contacted.' },
    });
    await expect(handleOnce(waiting, h.context(), job)).rejects.toMatchObject({
      name: 'IncidentTicketPendingError',
    });
    await h.db.prisma.incidentLink.create({
      data: { accountId: h.accountId, incidentId, ticketId: BigInt(ticketId) },
    });
    expect((await handleOnce(waiting, h.context(), job)).status).toBe('applied');
    expect(h.zendeskCalls).toEqual([`PUT /api/v2/tickets/${ticketId}.json`]);
  });

  it('an unlinked event is deferred for the rest of its wait, never held in its worker slot', async () => {
    const incident = await h.seedIncident({ url: `https://deferred${h.uid()}.example.org/` });
    const job = h.job('incident.history_created', {
      incidentId: incident.id,
      historyEntry: { message: 'Registrar contacted.' },
    });
    // a second after its receipt, of an hour's wait: a run held in its slot would never end here
    const receivedAt = new Date(job.receivedAt);
    const deferral = await handleOnce(
      { ...deps(), unlinkedWaitMs: 3_600_000, now: () => new Date(receivedAt.getTime() + 1_000) },
      h.context(),
      job,
    ).catch((error: unknown) => error);
    expect(deferral).toBeInstanceOf(JobDeferral);
    expect((deferral as JobDeferral).delayMs).toBe(3_599_000);
    expect(await detectedTickets(incident.id)).toHaveLength(0);
  });

  it('a report under way that may have created the incident defers its event, in no worker slot', async () => {
    const incident = await h.seedIncident({ url: `https://pending${h.uid()}.example.org/` });
    // a report whose POST is still out: it has no reference yet, so it may be this incident
    const ticketId = 900_000 + Math.floor(Math.random() * 90_000);
    const attempt = await h.db.prisma.reportAttempt.create({
      data: {
        accountId: h.accountId,
        ticketId: BigInt(ticketId),
        mode: 'takedown',
        state: 'sending',
      },
    });
    try {
      const job = h.job('incident.created', { incidentId: incident.id });
      // to look again in an hour: a run held in its slot meanwhile would never end here
      await expect(
        handleOnce({ ...deps(), unlinkedWaitMs: 0, pollIntervalMs: 3_600_000 }, h.context(), job),
      ).rejects.toMatchObject({ name: 'IncidentTicketPendingError', delayMs: 3_600_000 });
      expect(await detectedTickets(incident.id)).toHaveLength(0);
    } finally {
      // a report left under way would hold back every later unlinked incident of the account
      await h.db.prisma.reportAttempt.delete({ where: { id: attempt.id } });
    }
  });

  it('ignores an unlinked incident when the account tracks only ticket-originated reports', async () => {
    const incident = await h.seedIncident({ url: `https://ignored${h.uid()}.example.org/` });
    const before = (await h.allTickets()).length;
    const outcome = await handleIncidentEvent(
      deps(),
      h.context({ openTicketsForDetectedIncidents: false }),
      h.job('incident.status_changed', { incidentId: incident.id, status: 'case_building' }),
    );
    expect(outcome.status).toBe('skipped');
    expect((await h.allTickets()).length).toBe(before);
    expect(
      await h.db.prisma.incidentLink.count({
        where: { accountId: h.accountId, incidentId: incident.id },
      }),
    ).toBe(0);
  });

  it('two handlers for the same unlinked incident at once open one ticket', async () => {
    const incident = await h.seedIncident({
      url: `https://race${h.uid()}.example.org/login`,
      status: 'case_building',
    });
    const ctx = h.context();
    const outcomes = await Promise.all([
      handleIncidentEvent(deps(), ctx, h.job('incident.created', { incidentId: incident.id })),
      handleIncidentEvent(
        deps(),
        ctx,
        h.job('incident.history_created', {
          incidentId: incident.id,
          historyEntry: { message: 'Analyst assigned.' },
        }),
      ),
      handleIncidentEvent(
        deps(),
        ctx,
        h.job('incident.status_changed', { incidentId: incident.id, status: 'case_building' }),
      ),
    ]);
    const tickets = await detectedTickets(incident.id);
    expect(tickets).toHaveLength(1);
    expect(
      outcomes.filter((o) => o.status === 'applied' && o.detail?.startsWith('opened ticket')),
    ).toHaveLength(1);
    expect(
      await h.db.prisma.incidentLink.count({
        where: { accountId: h.accountId, incidentId: incident.id },
      }),
    ).toBe(1);
  });

  const claimsOf = (incidentId: string) =>
    h.db.prisma.incidentTicketClaim.findMany({ where: { accountId: h.accountId, incidentId } });
  const linksOf = (incidentId: string) =>
    h.db.prisma.incidentLink.findMany({ where: { accountId: h.accountId, incidentId } });

  /** A context whose Zendesk holds back every ticket it is asked to open until `release()`. */
  function holdingTicketCreation() {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    const zendesk = h.zendeskWith(async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (init?.method === 'POST' && url.endsWith('/api/v2/tickets.json')) {
        held += 1;
        await released;
      }
      return fetch(input, init);
    });
    return { context: { ...h.context(), zendesk }, release, held: () => held };
  }

  /** The incident's claims once its ticket's creation is at Zendesk (held there). */
  async function claimsWhileOpening(
    incidentId: string,
    opening: ReturnType<typeof holdingTicketCreation>,
  ) {
    await eventually('the ticket opening at Zendesk', () =>
      opening.held() > 0 ? true : undefined,
    );
    return claimsOf(incidentId);
  }

  it('holds the claim in its own table while the ticket opens; the link table gets only the real ticket', async () => {
    const incident = await h.seedIncident({ url: `https://claimed${h.uid()}.example.org/` });
    const opening = holdingTicketCreation();
    const handling = handleIncidentEvent(
      deps(),
      opening.context,
      h.job('incident.history_created', {
        incidentId: incident.id,
        historyEntry: { message: 'Registrar contacted.' },
      }),
    );
    const claims = await claimsWhileOpening(incident.id, opening);
    expect(claims).toHaveLength(1);
    expect(await linksOf(incident.id)).toEqual([]);
    expect(await h.db.prisma.incidentLink.count({ where: { ticketId: { lte: 0n } } })).toBe(0);

    opening.release();
    expect((await handling).status).toBe('applied');
    const [ticket] = await detectedTickets(incident.id);
    const links = await linksOf(incident.id);
    expect(links.map((link) => Number(link.ticketId))).toEqual([ticket!.id]);
    expect(await claimsOf(incident.id)).toEqual([]);
  });

  it('the link table refuses a ticket id that is not a real ticket', async () => {
    await expect(
      h.db.prisma.incidentLink.create({
        data: { accountId: h.accountId, incidentId: `neg${h.uid()}`, ticketId: -1n },
      }),
    ).rejects.toThrow();
  });

  it('a link saved while a worker opens the ticket is refused: one ticket, one link', async () => {
    const incident = await h.seedIncident({ url: `https://contended${h.uid()}.example.org/` });
    const other = await h.zendesk.tickets.create({
      subject: 'Agent ticket',
      comment: { body: 'Found this one myself.' },
    });
    const opening = holdingTicketCreation();
    const handling = handleIncidentEvent(
      deps(),
      opening.context,
      h.job('incident.history_created', {
        incidentId: incident.id,
        historyEntry: { message: 'Registrar contacted.' },
      }),
    );
    await claimsWhileOpening(incident.id, opening);
    // the recovery search (or a report) finds another ticket carrying the id meanwhile
    expect(await saveRecoveredLink(h.db, h.accountId, incident.id, other.ticket.id)).toMatchObject({
      state: 'claimed',
    });
    expect(
      await saveLinkUnderClaim(h.db, {
        accountId: h.accountId,
        incidentId: incident.id,
        ticketId: other.ticket.id,
        reportRef: null,
      }),
    ).toEqual({ saved: false, reason: 'claimed' });

    opening.release();
    expect((await handling).status).toBe('applied');
    const [ticket, ...more] = await detectedTickets(incident.id);
    expect(more).toHaveLength(0);
    expect((await linksOf(incident.id)).map((link) => Number(link.ticketId))).toEqual([ticket!.id]);
  });

  it('a ticket create that fails releases the claim; the retry opens the one ticket', async () => {
    const incident = await h.seedIncident({ url: `https://retried${h.uid()}.example.org/` });
    await h.zendeskFault({
      method: 'POST',
      path: '/api/v2/tickets.json',
      kind: 'error',
      status: 500,
      times: 1,
    });
    const job = h.job('incident.history_created', {
      incidentId: incident.id,
      historyEntry: { message: 'Registrar contacted.' },
    });
    await expect(handleIncidentEvent(deps(), h.context(), job)).rejects.toThrow();
    expect(await claimsOf(incident.id)).toEqual([]);
    expect(await linksOf(incident.id)).toEqual([]);
    expect((await handleIncidentEvent(deps(), h.context(), job)).status).toBe('applied');
    expect(await detectedTickets(incident.id)).toHaveLength(1);
    expect(await linksOf(incident.id)).toHaveLength(1);
  });

  it('the database away once the ticket is open: the link is saved when it is back, in the same run', async () => {
    const incident = await h.seedIncident({ url: `https://restart${h.uid()}.example.org/` });
    const db = withOutage(h.db, [
      { model: 'EchoLedgerEntry', operation: 'create', times: 1 },
      { model: 'IncidentTicketClaim', operation: 'deleteMany', times: 2 },
    ]);
    const job = h.job('incident.history_created', {
      incidentId: incident.id,
      historyEntry: { message: 'Registrar contacted.' },
    });
    expect((await handleIncidentEvent({ ...deps(), db }, h.context(), job)).status).toBe('applied');
    expect(db.failed()).toBe(3);
    expect(await detectedTickets(incident.id)).toHaveLength(1);
    expect(await linksOf(incident.id)).toHaveLength(1);
    expect(await claimsOf(incident.id)).toEqual([]);
  });

  it('a claim left by a stopped worker is taken over after the recovery search', async () => {
    const incident = await h.seedIncident({ url: `https://stale${h.uid()}.example.org/` });
    await h.db.prisma.incidentTicketClaim.create({
      data: { accountId: h.accountId, incidentId: incident.id, holder: randomUUID() },
    });
    const outcome = await handleIncidentEvent(
      { ...deps(), claimStaleMs: 0 },
      h.context(),
      h.job('incident.history_created', {
        incidentId: incident.id,
        historyEntry: { message: 'Registrar contacted.' },
      }),
    );
    expect(outcome.status).toBe('applied');
    const [taken] = await detectedTickets(incident.id);
    expect((await linksOf(incident.id)).map((link) => Number(link.ticketId))).toEqual([taken!.id]);
    expect(await claimsOf(incident.id)).toEqual([]);

    // a fresh claim is left to its worker: the job is deferred and looks again later
    const other = await h.seedIncident({ url: `https://busy${h.uid()}.example.org/` });
    await h.db.prisma.incidentTicketClaim.create({
      data: { accountId: h.accountId, incidentId: other.id, holder: randomUUID() },
    });
    await expect(
      handleOnce(
        deps(),
        h.context(),
        h.job('incident.history_created', {
          incidentId: other.id,
          historyEntry: { message: 'Registrar contacted.' },
        }),
      ),
    ).rejects.toThrow(/another worker is opening/);
    expect(await detectedTickets(other.id)).toHaveLength(0);
  });
});
