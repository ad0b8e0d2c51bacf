import { describe, expect, it } from 'vitest';
import { handleIncidentEvent } from './support/run-incident-event';
import { handleTicketEvent } from '../src/sync/ticket-events';
import { NOTE_MARKER } from '../src/sync/ticket-writer';
import { backends } from './support/test-database';
import { startTicketSyncHarness, SYNC_ACCOUNT } from './support/sync-ticket-harness';
import { startedForTests } from './support/started-for-tests';

describe.each(backends)('ticket -> incident report on %s', (backend) => {
  const h = startedForTests(() => startTicketSyncHarness(backend));
  const deps = () => ({ db: h.db });
  const tag = backend === 'pglite' ? 'a' : 'b';

  const report = (ticketId: number, mode: 'takedown' | 'monitor' = 'takedown') =>
    handleTicketEvent(deps(), h.ctx, h.job({ kind: 'report', ticketId, mode }));

  const linkOf = (ticketId: number) =>
    h.db.prisma.incidentLink.findUnique({
      where: { accountId_ticketId: { accountId: SYNC_ACCOUNT, ticketId: BigInt(ticketId) } },
    });

  const fieldValue = (ticket: { custom_fields: { id: number; value: unknown }[] }, id: number) =>
    ticket.custom_fields.find((f) => f.id === id)?.value;

  it.each([
    ['takedown', 'url', `https://login-${tag}.phish-url.test/signin`, 'url', undefined],
    ['monitor', 'domain', `phish-domain-${tag}.test`, 'url', undefined],
    ['takedown', 'email', `scammer-${tag}@fraud-mail.test`, 'email', undefined],
    [
      'monitor',
      'E.164 phone',
      `+1 415 555 01${tag === 'a' ? '10' : '20'}`,
      'phone',
      `+141555501${tag === 'a' ? '10' : '20'}`,
    ],
    ['takedown', 'IPv4', `198.51.100.${tag === 'a' ? 10 : 20}`, 'ipv4', undefined],
  ] as const)(
    'reports for %s a %s threat, saves the link, then writes the field and tags',
    async (mode, _kind, threat, sentAs, normalised) => {
      const ticketId = await h.createTicket({
        threat,
        body: `Seen\u00a0 this:\u00a0${tag} please act`,
      });
      const outcome = await report(ticketId, mode);
      expect(outcome.status).toBe('applied');

      const link = await linkOf(ticketId);
      expect(link).not.toBeNull();
      expect(link!.reportRef).toMatch(/^inc_/);
      const incident = (await h.incidents()).find((i) => i.ref === link!.reportRef)!;
      // the link keeps both forms: the id events and lists carry, and the report's answer
      expect(link!.incidentId).toBe(incident.id);
      // the reported value, normalised: what the sidebar's duplicate check compares
      expect(link!.threatValue).toBe(normalised ?? threat);
      expect(incident.requestedAction).toBe(mode);
      expect(incident.reportedBy).toBe('erin@customer.example');
      expect(incident.comments[0]?.comment).toBe(`Seen this: ${tag} please act`);
      if (sentAs === 'url') {
        expect(incident.incidentType).not.toMatch(/email|phone|ipv4/);
      } else {
        expect(incident.incidentType).toBe(sentAs);
        expect(incident.subject.toLowerCase()).toBe((normalised ?? threat).toLowerCase());
      }

      const { ticket, comments } = await h.readTicket(ticketId);
      // the field holds the report response's id, as the contract says
      expect(fieldValue(ticket, h.demo.incidentFieldId)).toBe(incident.ref);
      // the Incident Status field is written with the link, never empty until the first event
      expect(fieldValue(ticket, h.demo.statusFieldId)).toBe(`incident_status_${incident.status}`);
      expect(ticket.tags).toContain('incident_linked');
      expect(ticket.tags).not.toContain('incident_submit');
      const note = comments.at(-1)!;
      expect(note.public).toBe(false);
      expect(note.body.startsWith(NOTE_MARKER)).toBe(true);
      // the id the Incident ID field holds; the id events and lists carry is no concern of the agent
      expect(note.body).toContain(`Incident ID: ${incident.ref}.`);
      expect(note.body).not.toContain(incident.id);
      expect(note.body).not.toContain('events and lists');
      expect(note.body).not.toMatch(/https:\/\/|[a-z]\.test\b/); // threat shown defanged

      const attempt = await h.db.prisma.reportAttempt.findFirstOrThrow({
        where: { ticketId: BigInt(ticketId) },
      });
      expect(attempt.state).toBe('linked');
      expect(attempt.finishedAt).not.toBeNull();
      // comments that went with the report are never forwarded later
      expect(
        await h.db.prisma.forwardedComment.count({
          where: { ticketId: BigInt(ticketId), status: 'skipped' },
        }),
      ).toBe(1);

      // a redelivery reports nothing again
      expect((await report(ticketId, mode)).status).toBe('skipped');
      expect((await h.incidents()).filter((i) => i.ref === link!.reportRef)).toHaveLength(1);
    },
  );

  it('removes the monitoring submit tag as well once linked', async () => {
    const ticketId = await h.createTicket({
      threat: `https://submit-monitor-${tag}.phish-url.test/`,
      tags: ['incident_submit_monitor'],
    });
    expect((await report(ticketId, 'monitor')).status).toBe('applied');
    const { ticket } = await h.readTicket(ticketId);
    expect(ticket.tags).toContain('incident_linked');
    expect(ticket.tags).not.toContain('incident_submit_monitor');
  });

  it.each([
    ['an empty Threat field', undefined],
    ['an invalid threat', 'not a threat at all'],
    ['a malformed phone number', '+12'],
    ['a phone number without its country code', '4155550123'],
    ['an incomplete IPv4 address', '192.0.2'],
  ])('explains %s in an internal note and reports nothing', async (_case, threat) => {
    const before = (await h.incidents()).length;
    const ticketId = await h.createTicket(threat === undefined ? {} : { threat });
    const outcome = await report(ticketId);
    expect(outcome.status).toBe('failed_permanently');
    expect((await h.incidents()).length).toBe(before);
    expect(await h.notesContaining(ticketId, 'Not reported to the incident service')).toHaveLength(
      1,
    );
    expect(await linkOf(ticketId)).toBeNull();
    expect(await h.db.prisma.reportAttempt.count({ where: { ticketId: BigInt(ticketId) } })).toBe(
      0,
    );
  });

  async function expectUnlinked(ticketId: number, reason: string) {
    const { ticket } = await h.readTicket(ticketId);
    expect(ticket.tags).toContain('incident_unlinked');
    expect(ticket.tags).not.toContain('incident_linked');
    expect(fieldValue(ticket, h.demo.incidentFieldId) ?? null).toBeNull();
    expect(await linkOf(ticketId)).toBeNull();
    const entry = await h.db.prisma.reconciliationEntry.findUniqueOrThrow({
      where: { accountId_ticketId: { accountId: SYNC_ACCOUNT, ticketId: BigInt(ticketId) } },
    });
    expect(entry.reason).toBe(reason);
    expect(await h.notesContaining(ticketId, 'reconciliation queue')).toHaveLength(1);
  }

  it('handles a 409 duplicate without retrying: note, incident_unlinked, reconciliation', async () => {
    const threat = `https://dup-${tag}.phish-dup.test/a`;
    const first = await h.createTicket({ threat });
    expect((await report(first)).status).toBe('applied');
    const second = await h.createTicket({ threat });
    const outcome = await report(second);
    expect(outcome.status).toBe('applied');
    await expectUnlinked(second, 'duplicate');
    const attempt = await h.db.prisma.reportAttempt.findFirstOrThrow({
      where: { ticketId: BigInt(second) },
    });
    expect(attempt.state).toBe('duplicate');
    // a redelivery neither resends nor writes a second note
    expect((await report(second)).status).toBe('skipped');
    expect(await h.incidentsWithSubject(threat)).toHaveLength(1);
    expect(await h.notesContaining(second, 'reconciliation queue')).toHaveLength(1);
  });

  it('treats a 200 without id (legacy duplicate answer) like a 409', async () => {
    const threat = `legacy-${tag}@fraud-mail.test`;
    expect((await report(await h.createTicket({ threat }))).status).toBe('applied');
    await fetch(`${h.incidentUrl}/_sandbox/settings`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ duplicateResponse: 'legacy' }),
    });
    try {
      const ticketId = await h.createTicket({ threat });
      expect((await report(ticketId)).status).toBe('applied');
      await expectUnlinked(ticketId, 'duplicate');
      expect(await h.notesContaining(ticketId, 'without an incident id')).toHaveLength(1);
    } finally {
      await fetch(`${h.incidentUrl}/_sandbox/settings`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ duplicateResponse: 'conflict' }),
      });
    }
  });

  it('retries only the ticket update when it fails after the link is saved', async () => {
    const threat = `https://crash-${tag}.phish-crash.test/x`;
    const ticketId = await h.createTicket({ threat });
    await h.zendeskFault({
      path: `/api/v2/tickets/${ticketId}.json`,
      method: 'PUT',
      kind: 'error',
      status: 500,
      times: 1,
    });
    await expect(report(ticketId)).rejects.toThrow();

    const link = await linkOf(ticketId);
    expect(link).not.toBeNull();
    const attempt = await h.db.prisma.reportAttempt.findFirstOrThrow({
      where: { ticketId: BigInt(ticketId) },
    });
    expect(attempt.state).toBe('linked');
    expect(attempt.finishedAt).toBeNull();
    expect((await h.readTicket(ticketId)).ticket.tags).not.toContain('incident_linked');

    expect((await report(ticketId)).status).toBe('applied');
    const { ticket } = await h.readTicket(ticketId);
    expect(ticket.tags).toContain('incident_linked');
    expect(fieldValue(ticket, h.demo.incidentFieldId)).toBe(link!.reportRef);
    expect(await h.incidentsWithSubject(threat)).toHaveLength(1);
    expect(await h.notesContaining(ticketId, 'Reported to the incident service')).toHaveLength(1);
  });

  it('never resends a report a previous worker left in `sending`', async () => {
    const threat = `https://orphan-${tag}.phish-orphan.test/`;
    const ticketId = await h.createTicket({ threat });
    await h.db.prisma.reportAttempt.create({
      data: {
        accountId: SYNC_ACCOUNT,
        ticketId: BigInt(ticketId),
        mode: 'takedown',
        state: 'sending',
      },
    });
    const before = (await h.incidents()).length;
    expect((await report(ticketId)).status).toBe('applied');
    expect((await h.incidents()).length).toBe(before);
    await expectUnlinked(ticketId, 'report outcome unknown');
    expect((await report(ticketId)).status).toBe('skipped');
    expect((await h.incidents()).length).toBe(before);
  });

  it('sends a report whose answer was lost to reconciliation, never again', async () => {
    const threat = `https://lost-${tag}.phish-lost.test/`;
    const ticketId = await h.createTicket({ threat });
    await h.incidentFault({ method: 'POST', path: '/v1/incident/tkd', kind: 'drop', times: 1 });
    expect((await report(ticketId)).status).toBe('applied');
    await expectUnlinked(ticketId, 'report outcome unknown');
    expect((await report(ticketId)).status).toBe('skipped');
  });

  it('releases the claim and retries when the service answers 503 (it did not act)', async () => {
    const threat = `https://busy-${tag}.phish-busy.test/`;
    const ticketId = await h.createTicket({ threat });
    await h.incidentFault({
      method: 'POST',
      path: '/v1/incident/tkd',
      kind: 'status',
      status: 503,
      times: 1,
    });
    await expect(report(ticketId)).rejects.toThrow();
    expect(await h.db.prisma.reportAttempt.count({ where: { ticketId: BigInt(ticketId) } })).toBe(
      0,
    );
    expect((await report(ticketId)).status).toBe('applied');
    expect(await h.incidentsWithSubject(threat)).toHaveLength(1);
  });

  it('never resends a report answered 502 or 504: a gateway may have lost the answer after the service acted', async () => {
    for (const status of [502, 504]) {
      const threat = `https://gateway-${status}-${tag}.phish-gateway.test/`;
      const ticketId = await h.createTicket({ threat });
      await h.incidentFault({
        method: 'POST',
        path: '/v1/incident/tkd',
        kind: 'status',
        status,
        times: 1,
      });
      expect((await report(ticketId)).status).toBe('applied');
      await expectUnlinked(ticketId, 'report outcome unknown');
      expect(await h.notesContaining(ticketId, `failed midway (${status}`)).toHaveLength(1);
      expect((await report(ticketId)).status).toBe('skipped');
      expect(await h.incidentsWithSubject(threat)).toHaveLength(0);
    }
  });

  it('releases the claim and retries when the service answers 429 (it did not act)', async () => {
    const threat = `https://limited-${tag}.phish-limited.test/`;
    const ticketId = await h.createTicket({ threat });
    await h.incidentFault({
      method: 'POST',
      path: '/v1/incident/tkd',
      kind: 'status',
      status: 429,
      times: 1,
    });
    await expect(report(ticketId)).rejects.toThrow();
    expect(await h.db.prisma.reportAttempt.count({ where: { ticketId: BigInt(ticketId) } })).toBe(
      0,
    );
    expect((await report(ticketId)).status).toBe('applied');
    expect(await h.incidentsWithSubject(threat)).toHaveLength(1);
  });

  it('resumes linking when the detail lookup failed after a successful report', async () => {
    const threat = `https://resume-${tag}.phish-resume.test/`;
    const ticketId = await h.createTicket({ threat });
    await h.incidentFault({
      method: 'GET',
      path: '/v1/incident/:id',
      kind: 'status',
      status: 503,
      times: 2,
    });
    await expect(report(ticketId)).rejects.toThrow();
    const attempt = await h.db.prisma.reportAttempt.findFirstOrThrow({
      where: { ticketId: BigInt(ticketId) },
    });
    expect(attempt.state).toBe('sending');
    expect(attempt.incidentId).toMatch(/^inc_/);
    expect((await report(ticketId)).status).toBe('applied');
    expect((await linkOf(ticketId))?.reportRef).toBe(attempt.incidentId);
    expect(await h.incidentsWithSubject(threat)).toHaveLength(1);
  });

  it('the Incident ID field holds the report id, and events and lookups resolve by either form', async () => {
    const ticketId = await h.createTicket({ threat: `https://both-forms-${tag}.phish.test/` });
    expect((await report(ticketId)).status).toBe('applied');
    const link = (await linkOf(ticketId))!;
    const incident = (await h.incidents()).find((i) => i.ref === link.reportRef)!;
    expect(link.reportRef).not.toBe(link.incidentId);
    const { ticket } = await h.readTicket(ticketId);
    expect(fieldValue(ticket, h.demo.incidentFieldId)).toBe(link.reportRef);

    // an event under either form lands on the ticket
    for (const id of [incident.id, incident.ref]) {
      const outcome = await handleIncidentEvent({ db: h.db, unlinkedWaitMs: 0 }, h.ctx, {
        accountId: SYNC_ACCOUNT,
        receivedAt: new Date().toISOString(),
        event: {
          id: `evt_both_${tag}_${id}`,
          event: 'incident.history_created',
          timestamp: new Date().toISOString(),
          data: { incidentId: id, historyEntry: { message: `Registrar contacted (${id}).` } },
        },
      });
      expect(outcome).toMatchObject({ status: 'applied', detail: `ticket ${ticketId}` });
    }
    expect(await h.notesContaining(ticketId, 'Analyst: Registrar contacted')).toHaveLength(2);
    // the field's value is accepted by the incident service's lookups
    const detail = await h.ctx.incidents().incidents.retrieve(link.reportRef!);
    expect(detail.id).toBe(incident.id);
  });
  it('names the agent who reported from the sidebar as the reporter, the requester otherwise', async () => {
    const ticketId = await h.createTicket({ threat: `https://reporter-${tag}.phish.test/` });
    const outcome = await handleTicketEvent(deps(), h.ctx, {
      ...h.job({ kind: 'report', ticketId, mode: 'takedown' }),
      via: 'sidebar',
      agentEmail: `agent-${tag}@demo.example`,
    });
    expect(outcome.status).toBe('applied');
    const link = (await linkOf(ticketId))!;
    const incident = (await h.incidents()).find((i) => i.ref === link.reportRef)!;
    expect(incident.reportedBy).toBe(`agent-${tag}@demo.example`);
  });

  it("keeps the report's dashboard link and ends each note of the incident with it", async () => {
    const ticketId = await h.createTicket({ threat: `https://dashboard-${tag}.phish.test/` });
    expect((await report(ticketId)).status).toBe('applied');
    const link = (await linkOf(ticketId))!;
    expect(link.dashboardUrl).toMatch(new RegExp(`^https?://[^ ]+/incident/${link.reportRef}$`));
    const outcome = await handleIncidentEvent({ db: h.db, unlinkedWaitMs: 0 }, h.ctx, {
      accountId: SYNC_ACCOUNT,
      receivedAt: new Date().toISOString(),
      event: {
        id: `evt_dashboard_${tag}`,
        event: 'incident.history_created',
        timestamp: new Date().toISOString(),
        data: { incidentId: link.incidentId, historyEntry: { message: 'Registrar contacted.' } },
      },
    });
    expect(outcome.status).toBe('applied');
    const [note] = await h.notesContaining(ticketId, 'Analyst: Registrar contacted');
    expect(note!.body).toContain(`Dashboard: ${link.dashboardUrl}`);
  });
});
