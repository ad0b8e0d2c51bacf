import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleIncidentEvent } from './support/run-incident-event';
import { recordReportHistory } from '../src/sync/echo-ledger';
import { drainAccountOnce } from '../src/sync/ticket-writes/drain-account';
import { ZENDESK_WRITE_LIMITS } from '../src/sync/ticket-writes/write-budget';
import { writeHealthReader } from '../src/sync/ticket-writes/write-health-report';
import { adminOverview } from '../src/admin/admin-overview';
import type { TZendeskOAuthConfig } from '../src/accounts/zendesk-oauth-config';
import { startHarness, type Harness } from './sync-incident-harness';
import { backends } from './support/test-database';

const at = (iso: string) => ({ timestamp: iso });

describe.each(backends)('incident events for linked tickets on %s', (backend) => {
  let h: Harness;
  const deps = () => ({ db: h.db, unlinkedWaitMs: 10, pollIntervalMs: 10 });
  /** An incident.history_created with this message, by this author when one is named. */
  const historyEntry = (incidentId: string, message: string, author?: { type: string }) =>
    handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.history_created', {
        incidentId,
        historyEntry: { message, ...(author ? { author } : {}) },
      }),
    );
  /** One pass of the account's writer, writing what waits even inside its hold. */
  const drain = (ctx = h.context()) =>
    drainAccountOnce(ctx, h.db, {
      now: () => new Date(),
      limits: ZENDESK_WRITE_LIMITS,
      ignoreReadyAt: true,
    });

  beforeAll(async () => {
    h = await startHarness(backend);
  });
  afterAll(() => h?.close());

  it('webhook.test records health and changes no ticket', async () => {
    const { ticketId } = await h.linkedTicket();
    const before = await h.comments(ticketId);
    const outcome = await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('webhook.test', undefined),
    );
    expect(outcome.status).toBe('applied');
    const health = await h.db.prisma.accountHealth.findUniqueOrThrow({
      where: { accountId: h.accountId },
    });
    expect(health.lastWebhookTestAt).not.toBeNull();
    expect(health.lastIncidentEventAt).not.toBeNull();
    expect(await h.comments(ticketId)).toHaveLength(before.length);
  });

  it('records per client subscription when a real event last arrived, apart from webhook.test, and the admin overview shows it', async () => {
    const subscription = (clientId: string) =>
      h.db.prisma.incidentSubscription.create({
        data: {
          accountId: h.accountId,
          clientId,
          receiverId: `rcv_${clientId}_${h.uid()}`,
          sealedSecret: 'sealed',
        },
      });
    const parent = await subscription('cl_parent_health');
    const child = await subscription('cl_child_health');
    const via = (receiverId: string, job: ReturnType<Harness['job']>) => ({
      ...job,
      subscriptionId: receiverId,
    });
    for (const row of [parent, child]) {
      await handleIncidentEvent(
        deps(),
        h.context(),
        via(row.receiverId, h.job('webhook.test', undefined)),
      );
    }
    const { incidentId } = await h.linkedTicket();
    await handleIncidentEvent(
      deps(),
      h.context(),
      via(parent.receiverId, h.job('incident.takedown_updated', { incidentId })),
    );
    const rows = await h.db.prisma.incidentSubscription.findMany({
      where: { accountId: h.accountId, clientId: { in: [parent.clientId, child.clientId] } },
      orderBy: { clientId: 'asc' },
    });
    const [child2, parent2] = rows;
    expect(parent2!.lastEventAt).not.toBeNull();
    expect(parent2!.lastTestAt).not.toBeNull();
    expect(child2!.lastTestAt).not.toBeNull();
    expect(child2!.lastEventAt).toBeNull(); // only setup's test so far: not yet proven

    const overview = await adminOverview(
      h.db,
      {
        scope: 'tickets:read tickets:write users:read',
        baseUrlTemplate: 'https://{subdomain}.zendesk.com',
      } as TZendeskOAuthConfig,
      h.accountId,
      writeHealthReader(h.db, { now: () => new Date(), lateAfterSeconds: 120 }),
    );
    expect(overview.health.subscriptions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ clientId: child.clientId, lastEventAt: null }),
        expect.objectContaining({ clientId: parent.clientId, lastEventAt: parent2!.lastEventAt }),
      ]),
    );
  });

  it('every event records lastIncidentEventAt, unknown events are skipped, malformed ones fail for good', async () => {
    const now = new Date('2031-01-01T00:00:00Z');
    const unknown = await handleIncidentEvent(
      { ...deps(), now: () => now },
      h.context(),
      h.job('incident.renamed', { incidentId: 'x' }),
    );
    expect(unknown).toEqual({ status: 'skipped', reason: 'unknown event incident.renamed' });
    const health = await h.db.prisma.accountHealth.findUniqueOrThrow({
      where: { accountId: h.accountId },
    });
    expect(health.lastIncidentEventAt?.toISOString()).toBe(now.toISOString());

    const noIncident = await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.status_changed', { status: 'closed' }),
    );
    expect(noIncident.status).toBe('failed_permanently');
  });

  it('status_changed writes one note and the Status field in one update, not solving by default', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    h.zendeskCalls.length = 0;
    const outcome = await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.status_changed', { incidentId, status: 'takedown_success' }),
    );
    expect(outcome.status).toBe('applied');
    // one Zendesk call for the event: the note, the field and the status together
    expect(h.zendeskCalls).toEqual([`PUT /api/v2/tickets/${ticketId}.json`]);
    const ticket = await h.ticket(ticketId);
    expect(h.fieldValue(ticket, h.seed.statusFieldId)).toBe('incident_status_takedown_success');
    expect(ticket.status).not.toBe('solved');
    const notes = await h.notes(ticketId);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('Status: Taken down\nThe takedown completed successfully.');
    const state = await h.db.prisma.ticketSyncState.findFirstOrThrow({
      where: { accountId: h.accountId, ticketId: BigInt(ticketId) },
    });
    expect(state.lastStatus).toBe('takedown_success');
  });

  it('a change for a ticket closed in Zendesk goes to a follow-up of it, not a dead letter, and is not retried', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    await h.context().zendesk.tickets.update(ticketId, { status: 'closed' });
    const outcome = await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.status_changed', { incidentId, status: 'takedown_success' }),
    );
    expect(outcome.status).toBe('applied');
    expect(
      await h.db.prisma.syncFailure.count({
        where: { accountId: h.accountId, ticketId: BigInt(ticketId) },
      }),
    ).toBe(0);
    const link = await h.db.prisma.incidentLink.findFirstOrThrow({
      where: { accountId: h.accountId, incidentId },
    });
    expect(Number(link.ticketId)).not.toBe(ticketId);
    const followUp = await h.context().zendesk.tickets.show(Number(link.ticketId));
    expect((followUp as { via?: { source?: { rel?: string } } }).via?.source?.rel).toBe(
      'follow_up',
    );
    h.zendeskCalls.length = 0;
    expect((await drain()).nextAt).toBeNull();
    expect(h.zendeskCalls).toEqual([]);
  });

  it('solves on takedown_success only when the account opts in', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    await handleIncidentEvent(
      deps(),
      h.context({ solveOnTakedownSuccess: true }),
      h.job('incident.status_changed', { incidentId, status: 'takedown_success' }),
    );
    expect((await h.ticket(ticketId)).status).toBe('solved');
  });

  it('an older status event never moves the Status field or the ticket status back', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    const ctx = h.context({ solveOnTakedownSuccess: true });
    const newer = h.job(
      'incident.status_changed',
      { incidentId, status: 'takedown_success' },
      at('2030-05-01T10:00:00Z'),
    );
    const older = h.job(
      'incident.status_changed',
      { incidentId, status: 'takedown_in_progress' },
      at('2030-05-01T09:00:00Z'),
    );
    expect((await handleIncidentEvent(deps(), ctx, newer)).status).toBe('applied');
    expect((await handleIncidentEvent(deps(), ctx, older)).status).toBe('applied');
    const ticket = await h.ticket(ticketId);
    expect(h.fieldValue(ticket, h.seed.statusFieldId)).toBe('incident_status_takedown_success');
    expect(ticket.status).toBe('solved');
    const notes = await h.notes(ticketId);
    expect(notes).toHaveLength(2);
    expect(notes[1]).toContain('older than one already shown; the Status field stays Taken down');

    // an older action_required does not reopen either
    await handleIncidentEvent(
      deps(),
      ctx,
      h.job(
        'incident.action_required',
        { incidentId, waitForClient: 'Confirm ownership' },
        at('2030-05-01T08:00:00Z'),
      ),
    );
    expect((await h.ticket(ticketId)).status).toBe('solved');
    const state = await h.db.prisma.ticketSyncState.findFirstOrThrow({
      where: { accountId: h.accountId, ticketId: BigInt(ticketId) },
    });
    expect(state.lastEventAt.toISOString()).toBe('2030-05-01T10:00:00.000Z');
    expect(state.lastStatus).toBe('takedown_success');
  });

  it('a newer action_required keeps its reopening against a late, older takedown_success', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    const ctx = h.context({ solveOnTakedownSuccess: true });
    await h.zendesk.tickets.update(ticketId, { status: 'pending' });
    await handleIncidentEvent(
      deps(),
      ctx,
      h.job(
        'incident.action_required',
        { incidentId, waitForClient: 'Confirm ownership' },
        at('2030-06-01T10:00:00Z'),
      ),
    );
    expect((await h.ticket(ticketId)).status).toBe('open');
    await handleIncidentEvent(
      deps(),
      ctx,
      h.job(
        'incident.status_changed',
        { incidentId, status: 'takedown_success' },
        at('2030-06-01T09:00:00Z'),
      ),
    );
    const ticket = await h.ticket(ticketId);
    expect(ticket.status).toBe('open');
    // no newer status is known: the Status field shows this one, without solving the ticket
    expect(h.fieldValue(ticket, h.seed.statusFieldId)).toBe('incident_status_takedown_success');
    const notes = await h.notes(ticketId);
    expect(notes[1]).not.toContain('older than one already shown');
    const state = await h.db.prisma.ticketSyncState.findFirstOrThrow({
      where: { accountId: h.accountId, ticketId: BigInt(ticketId) },
    });
    expect(state.lastEventAt.toISOString()).toBe('2030-06-01T10:00:00.000Z');
    expect(state.lastStatusAt?.toISOString()).toBe('2030-06-01T09:00:00.000Z');
  });

  it('an action_required that overtakes its own status_changed does not hide the new status', async () => {
    // The service emits status_changed(action_required) and then action_required; ordering is
    // unspecified (Events rule 5), so the second may be applied first.
    const { incidentId, ticketId } = await h.linkedTicket();
    const ctx = h.context();
    for (const [status, when] of [
      ['pre_weaponised', '2030-07-01T09:00:00.000Z'],
      ['action_required', '2030-07-01T10:00:00.000Z'],
    ] as const) {
      const job = h.job('incident.status_changed', { incidentId, status }, at(when));
      if (status === 'action_required') {
        await h.zendesk.tickets.update(ticketId, { status: 'pending' });
        const reason = { incidentId, waitForClient: 'Confirm ownership' };
        const overtaking = h.job(
          'incident.action_required',
          reason,
          at('2030-07-01T10:00:00.001Z'),
        );
        expect((await handleIncidentEvent(deps(), ctx, overtaking)).status).toBe('applied');
      }
      expect((await handleIncidentEvent(deps(), ctx, job)).status).toBe('applied');
    }
    const ticket = await h.ticket(ticketId);
    expect(h.fieldValue(ticket, h.seed.statusFieldId)).toBe('incident_status_action_required');
    expect(ticket.status).toBe('open');
    expect((await h.notes(ticketId)).join('\n')).not.toContain('older than one already shown');
  });

  it('applying the same job twice writes one note', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    const job = h.job('incident.history_created', {
      incidentId,
      historyEntry: { message: 'Registrar contacted.' },
    });
    expect((await handleIncidentEvent(deps(), h.context(), job)).status).toBe('applied');
    expect(await handleIncidentEvent(deps(), h.context(), job)).toEqual({
      status: 'skipped',
      reason: `change already recorded for ticket ${ticketId}`,
    });
    const status = h.job('incident.status_changed', { incidentId, status: 'closed' });
    await handleIncidentEvent(deps(), h.context(), status);
    await handleIncidentEvent(deps(), h.context(), status);
    expect(await h.notes(ticketId)).toHaveLength(2);
  });

  it('a write that never reached Zendesk is made again; one that Zendesk committed before its answer was lost is not', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    // the first PUT never arrives; the second is committed but its answer is lost
    let puts = 0;
    const lossy = h.zendeskWith(async (input, init) => {
      if (init?.method === 'PUT') {
        puts += 1;
        if (puts === 1) throw new TypeError('fetch failed: connection reset');
        if (puts === 2) {
          await fetch(input, init);
          throw new TypeError('fetch failed: socket hang up');
        }
      }
      return fetch(input, init);
    });
    const ctx = { ...h.context(), zendesk: lossy };
    const history = h.job('incident.history_created', {
      incidentId,
      historyEntry: { message: 'Registrar contacted.' },
    });
    expect((await handleIncidentEvent(deps(), ctx, history)).status).toBe('applied');
    expect(await h.notes(ticketId)).toHaveLength(0);
    const pending = await h.db.prisma.pendingTicketChange.findFirstOrThrow({
      where: { accountId: h.accountId, ticketId: BigInt(ticketId) },
    });
    expect(pending.writtenAt).toBeNull();
    expect(pending.writeRef).not.toBeNull();

    await drain(ctx); // looks for the first write in the audits, finds none, writes (answer lost)
    expect(await h.notes(ticketId)).toHaveLength(1);
    await drain(ctx); // finds its write by the reference in its audit: written, not repeated
    expect(await h.notes(ticketId)).toHaveLength(1);
    expect(puts).toBe(2);
    const settled = await h.db.prisma.pendingTicketChange.findFirstOrThrow({
      where: { accountId: h.accountId, ticketId: BigInt(ticketId) },
    });
    expect(settled.writtenAt).not.toBeNull();
    // the reference is in the audit's metadata, not in the note
    expect((await h.notes(ticketId))[0]).not.toContain(settled.writeRef!);
    const audits = (await h.zendesk.tickets.audits.list(ticketId)).getItems();
    expect(audits.map((audit) => audit.metadata?.custom)).toContainEqual({
      incident_desk: { ref: settled.writeRef, events: [history.event.id] },
    });
  });

  it('a status event retried after its order was recorded but its update failed still sets the field', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    const job = h.job(
      'incident.status_changed',
      { incidentId, status: 'blocklisted' },
      at('2030-07-01T00:00:00Z'),
    );
    await h.db.prisma.ticketSyncState.create({
      data: {
        accountId: h.accountId,
        ticketId: BigInt(ticketId),
        lastEventAt: new Date('2030-07-01T00:00:00Z'),
        lastStatus: 'blocklisted',
      },
    });
    expect((await handleIncidentEvent(deps(), h.context(), job)).status).toBe('applied');
    expect(h.fieldValue(await h.ticket(ticketId), h.seed.statusFieldId)).toBe(
      'incident_status_blocklisted',
    );
    expect((await h.notes(ticketId))[0]).toContain('Status: Blocklisted');
  });

  it('a Zendesk outage never fails the event: the change waits and the next pass writes one note', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    const job = h.job('incident.status_changed', { incidentId, status: 'pre_weaponised' });
    await h.zendeskFault({
      method: 'PUT',
      path: `/api/v2/tickets/${ticketId}.json`,
      kind: 'error',
      status: 503,
      times: 1,
    });
    expect((await handleIncidentEvent(deps(), h.context(), job)).status).toBe('applied');
    expect(await h.notes(ticketId)).toHaveLength(0);
    expect((await handleIncidentEvent(deps(), h.context(), job)).status).toBe('skipped');
    await drain();
    expect(await h.notes(ticketId)).toHaveLength(1);
    expect(h.fieldValue(await h.ticket(ticketId), h.seed.statusFieldId)).toBe(
      'incident_status_pre_weaponised',
    );
  });

  it('history_created writes the message, or a generic note when it is missing', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.history_created', {
        incidentId,
        historyEntry: { message: 'Registrar contacted.' },
      }),
    );
    await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.history_created', { incidentId }),
    );
    await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.history_created', { incidentId, historyEntry: 'not an object' }),
    );
    const notes = await h.notes(ticketId);
    expect(notes).toHaveLength(3);
    expect(notes[0]).toContain('Analyst: Registrar contacted.');
    // the incident cannot be read (it exists only in the link table): nothing more to say
    expect(notes[1]).toContain('The incident was updated.');
    expect(notes[2]).toContain('The incident was updated.');
    expect(notes.join('\n')).not.toContain('no message was given');
  });

  it("history_created without a message reads the analyst's message from the incident's history", async () => {
    const seeded = await h.seedIncident({
      url: 'https://brand-login.example/x',
      status: 'pending_review',
    });
    await h.control(`/_sandbox/incidents/${seeded.id}/advance`, {
      status: 'case_building',
      message: 'Registrar contacted by phone; waiting for their abuse desk.',
      force: true,
    });
    const { ticketId } = await h.linkedTicket({ incidentId: seeded.id });
    h.zendeskCalls.length = 0;
    const outcome = await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.history_created', { incidentId: seeded.id }),
    );
    expect(outcome.status).toBe('applied');
    const notes = await h.notes(ticketId);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain(
      'Analyst: Registrar contacted by phone; waiting for their abuse desk.',
    );
  });

  it.each([
    { order: 'in emission order, neither with its message', first: 'older', messages: [] },
    { order: 'newest first, neither with its message', first: 'newer', messages: [] },
    { order: 'the older without its message first', first: 'older', messages: ['newer'] },
    { order: 'the newer with its message first', first: 'newer', messages: ['newer'] },
    { order: 'the newer without its message first', first: 'newer', messages: ['older'] },
  ])(
    'history entries the service dated alike are each noted once ($order)',
    async ({ first, messages }) => {
      const seeded = await h.seedIncident({ url: `https://alike-${h.uid()}.example/` });
      const said = { older: 'Submitted to Google Safe Browsing', newer: 'Submitted to Netcraft' };
      for (const message of [said.older, said.newer])
        await h.control(`/_sandbox/incidents/${seeded.id}/history`, { message });
      // the service dated both in one millisecond (the report's own entry at another)
      const record = h.incidentSandbox.store.state.incidents.find((i) => i.id === seeded.id)!;
      const moment = new Date(Date.now() + 5_000).toISOString();
      for (const entry of record.history.slice(0, 2)) entry.timestamp = moment;
      const { ticketId } = await h.linkedTicket({ incidentId: seeded.id });
      const event = (which: 'older' | 'newer') =>
        h.job(
          'incident.history_created',
          {
            incidentId: seeded.id,
            ...(messages.includes(which) ? { historyEntry: { message: said[which] } } : {}),
          },
          { timestamp: moment },
        );
      const order =
        first === 'older' ? (['older', 'newer'] as const) : (['newer', 'older'] as const);
      for (const which of order) {
        const outcome = await handleIncidentEvent(deps(), h.context(), event(which));
        expect(outcome.status).not.toBe('failed');
      }
      const text = (await h.notes(ticketId)).join('\n');
      for (const message of [said.older, said.newer])
        expect(text.split(message), text).toHaveLength(2);
      expect(text).not.toContain('The incident was updated.');
    },
  );

  it('an analyst message said twice within a second, each event with its message, is noted twice', async () => {
    const seeded = await h.seedIncident({ url: `https://twice-${h.uid()}.example/` });
    const message = 'Registrar asked again.';
    for (let i = 0; i < 2; i++)
      await h.control(`/_sandbox/incidents/${seeded.id}/history`, { message });
    const { ticketId } = await h.linkedTicket({ incidentId: seeded.id });
    for (let i = 0; i < 2; i++) {
      const outcome = await handleIncidentEvent(
        deps(),
        h.context(),
        h.job('incident.history_created', { incidentId: seeded.id, historyEntry: { message } }),
      );
      expect(outcome.status).toBe('applied');
    }
    expect((await h.notes(ticketId)).join('\n').split(message)).toHaveLength(3);
  });

  it('history_created echoing a comment the connector posted is skipped: its exact text, once per comment, never by resemblance or from another author', async () => {
    const { incidentId, ticketId } = await h.linkedTicket({ reportRef: `inc_${h.uid()}` });
    const link = await h.db.prisma.incidentLink.findFirstOrThrow({
      where: { accountId: h.accountId, incidentId },
    });
    const posted = {
      accountId: h.accountId,
      kind: 'incident_comment' as const,
      settledAt: new Date(),
    };
    const long = 'We confirmed the page is still collecting passwords today.';
    await h.db.prisma.echoLedgerEntry.createMany({
      data: [
        { ...posted, target: incidentId, text: 'Thanks!' },
        // posted under the report reference: still the same incident
        { ...posted, target: link.reportRef!, text: long },
        // the same reply sent twice: two entries are its echoes
        { ...posted, target: incidentId, text: 'Sent again.' },
        { ...posted, target: incidentId, text: 'Sent again.' },
        { ...posted, target: incidentId, text: 'Quoted by the analyst.' },
      ],
    });
    const run = (message: string, author?: { type: string }) =>
      historyEntry(incidentId, message, author);
    expect((await run('Thanks!\u00a0 ')).status).toBe('skipped');
    // one comment absorbs one entry: the same words again are news
    expect((await run('Thanks!')).status).toBe('applied');
    // the service's own wording of a comment's entry
    expect((await run(`Comment: ${long}`)).status).toBe('skipped');
    expect((await run('Sent again.')).status).toBe('skipped');
    expect((await run('Sent again.')).status).toBe('skipped');
    // another author's entry is never an echo, whatever it says
    expect((await run('Quoted by the analyst.', { type: 'analyst' })).status).toBe('applied');
    // an entry that contains a comment, or is contained in one, is not its echo
    expect((await run(`Analyst: ${long} Thanks for the details.`)).status).toBe('applied');
    expect((await run('collecting passwords today')).status).toBe('applied');
    expect(await h.notes(ticketId)).toHaveLength(4);
  });

  it("a requester's email that quotes the analyst hides no analyst entry; the report's comment itself is skipped once", async () => {
    const { incidentId, ticketId } = await h.linkedTicket({ reportRef: `inc_${h.uid()}` });
    const analyst = 'Please send us the original email headers so we can trace the sender.';
    const email = `Hello, your analyst wrote "${analyst}" and here they are. Please take the site down.`;
    await h.db.prisma.echoLedgerEntry.create({
      data: {
        accountId: h.accountId,
        kind: 'report_comment',
        target: incidentId,
        text: email,
        settledAt: new Date(),
      },
    });
    const run = (message: string, author?: { type: string }) =>
      historyEntry(incidentId, message, author);
    expect((await run(analyst, { type: 'analyst' })).status).toBe('applied');
    expect((await run(analyst)).status).toBe('applied');
    expect((await run('Please take the site down.')).status).toBe('applied');
    expect((await run(email)).status).toBe('skipped');
    expect((await run(email, { type: 'analyst' })).status).toBe('applied');
    expect(await h.notes(ticketId)).toHaveLength(4);
  });

  it("the report's own history entry is skipped only on an exact match, for its incident, while it is recent", async () => {
    const { incidentId, ticketId } = await h.linkedTicket({ reportRef: `inc_${h.uid()}` });
    const link = await h.db.prisma.incidentLink.findFirstOrThrow({
      where: { accountId: h.accountId, incidentId },
    });
    await recordReportHistory(h.db, h.accountId, link.reportRef!, [
      'Incident reported for\u00a0takedown ',
    ]);
    const history = (message: string) =>
      handleIncidentEvent(
        deps(),
        h.context(),
        h.job('incident.history_created', { incidentId, historyEntry: { message } }),
      );
    expect(await history('Incident reported for takedown')).toEqual({
      status: 'skipped',
      reason: "history entry the ticket's own report produced",
    });
    // longer texts that merely contain it are news
    expect((await history('Incident reported for takedown was approved by the brand')).status).toBe(
      'applied',
    );
    // another incident's confirmation is not this report's
    const other = await h.linkedTicket();
    const elsewhere = await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.history_created', {
        incidentId: other.incidentId,
        historyEntry: { message: 'Incident reported for takedown' },
      }),
    );
    expect(elsewhere.status).toBe('applied');
    // past the retention window the same text is an ordinary entry again
    const later = await handleIncidentEvent(
      { ...deps(), now: () => new Date(Date.now() + 3 * 24 * 3_600_000) },
      h.context(),
      h.job('incident.history_created', {
        incidentId,
        historyEntry: { message: 'Incident reported for takedown' },
      }),
    );
    expect(later.status).toBe('applied');
    const notes = await h.notes(ticketId);
    expect(notes.filter((note) => note.includes('Incident reported for takedown'))).toHaveLength(2);
  });

  it('takedown_updated names what is new since the ticket was last told, and writes nothing when nothing is', async () => {
    const incident = await h.seedIncident({ url: `https://takedown-${h.uid()}.example/login` });
    const { ticketId } = await h.linkedTicket({ incidentId: incident.id });
    const takedown = () =>
      handleIncidentEvent(
        deps(),
        h.context(),
        h.job('incident.takedown_updated', { incidentId: incident.id }),
      );
    const lines = async () => (await h.notes(ticketId)).map((note) => note.split('\n').slice(2));

    await h.incidentControl(`/incidents/${incident.id}/blocklists`, {
      authority: 'Google Safe Browsing',
      type: 'warning-banner',
      status: 'listed',
    });
    await h.incidentControl(`/incidents/${incident.id}/blocklists`, {
      authority: 'Netcraft',
      type: 'blocklist',
      status: 'submitted',
    });
    await h.incidentControl(`/incidents/${incident.id}/takedown-attempts`, {
      startedAt: new Date().toISOString(),
    });
    expect((await takedown()).status).toBe('applied');
    expect(await lines()).toEqual([
      [
        'Listed on 1 blocklist: Google Safe Browsing.',
        'Submitted to 1 blocklist, protection in progress: Netcraft.',
        'Takedown attempt 1 sent to the registrar.',
      ],
    ]);

    // nothing new: the event is kept, no note line, no ticket update
    h.zendeskCalls.length = 0;
    expect((await takedown()).status).toBe('applied');
    expect(h.zendeskCalls.filter((call) => call.startsWith('PUT'))).toEqual([]);
    expect(await h.notes(ticketId)).toHaveLength(1);

    // the attempt ends, a second one starts, a snapshot is taken: only that is told
    await h.incidentControl(`/incidents/${incident.id}/takedown-attempts`, {
      startedAt: new Date(Date.now() - 60_000).toISOString(),
      resolvedAt: new Date().toISOString(),
      outcome: 'failed',
    });
    await h.incidentControl(`/incidents/${incident.id}/snapshots`, {});
    expect((await takedown()).status).toBe('applied');
    const [, latest] = await lines();
    expect(latest).toEqual([
      'Takedown attempt 2 sent to the registrar.',
      'Takedown attempt 1: failed.',
      'New snapshot.',
    ]);
    expect((await h.notes(ticketId)).join('\n')).not.toContain('Takedown progress changed');
  });

  it('action_required reopens the ticket with the reason, or a generic note when it is not a string', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    await h.zendesk.tickets.update(ticketId, { status: 'pending' });
    await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.action_required', {
        incidentId,
        waitForClient: 'Send proof of brand ownership',
      }),
    );
    expect((await h.ticket(ticketId)).status).toBe('open');
    await h.zendesk.tickets.update(ticketId, { status: 'pending' });
    const outcome = await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.action_required', { incidentId, waitForClient: true }),
    );
    expect(outcome.status).toBe('applied');
    expect((await h.ticket(ticketId)).status).toBe('open');
    const notes = await h.notes(ticketId);
    expect(notes[0]).toContain('Request: Send proof of brand ownership');
    expect(notes[0]).toContain('Next step: do what the analyst asks');
    expect(notes[1]).toContain('No reason was given');
  });

  it('incident.created for a linked ticket is a no-op', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    const outcome = await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.created', { incidentId }),
    );
    expect(outcome.status).toBe('skipped');
    expect(await h.notes(ticketId)).toHaveLength(0);
  });

  it('resolves the ticket through the report reference as well', async () => {
    const reportRef = `inc_${h.uid()}`;
    const { ticketId } = await h.linkedTicket({ reportRef });
    await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.history_created', {
        incidentId: reportRef,
        historyEntry: { message: 'Registrar contacted.' },
      }),
    );
    expect(await h.notes(ticketId)).toHaveLength(1);
  });

  it('tolerates missing optional fields: no status, no timestamp, no clientId', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    const job = h.job(
      'incident.status_changed',
      { incidentId },
      { timestamp: undefined, clientId: undefined, id: undefined },
    );
    const outcome = await handleIncidentEvent(deps(), h.context(), job);
    expect(outcome.status).toBe('applied');
    const ticket = await h.ticket(ticketId);
    expect(h.fieldValue(ticket, h.seed.statusFieldId)).toBeNull();
    expect((await h.notes(ticketId))[0]).toContain('the new status was not given');
    // same body again (no envelope id): recognised by its hash
    expect((await handleIncidentEvent(deps(), h.context(), job)).status).toBe('skipped');
  });

  it('falls back to the incident for a status_changed without status, and sets the Status field', async () => {
    const incident = await h.seedIncident({
      url: `https://no-status-${Date.now()}.example/x`,
      status: 'takedown_in_progress',
    });
    const { ticketId } = await h.linkedTicket({ incidentId: incident.id });
    const outcome = await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.status_changed', { incidentId: incident.id }),
    );
    expect(outcome.status).toBe('applied');
    const ticket = await h.ticket(ticketId);
    expect(h.fieldValue(ticket, h.seed.statusFieldId)).toBe('incident_status_takedown_in_progress');
    expect((await h.notes(ticketId))[0]).not.toContain('the new status was not given');
  });

  it('defangs threat values quoted in free text and keeps notes plain text', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.history_created', {
        incidentId,
        historyEntry: {
          message:
            'Still live at https://evil.example.com/login <script>alert(1)</script>\u0007 see evil.example.com',
        },
      }),
    );
    const [note] = await h.notes(ticketId);
    expect(note).toContain('hxxps[:]//evil[.]example[.]com/login');
    expect(note).toContain('see evil[.]example[.]com');
    expect(note).not.toContain('https://');
    expect(note).not.toContain('\u0007');
    const [comment] = (await h.comments(ticketId)).filter(
      (c) => !c.public && (c.body ?? '').startsWith('[incident-desk]'),
    );
    expect(comment?.html_body ?? '').not.toContain('<script>');
  });

  it('never reaches a ticket of another account', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    const ctx = h.otherContext({ openTicketsForDetectedIncidents: false });
    const outcome = await handleIncidentEvent(deps(), ctx, {
      ...h.job('incident.takedown_updated', { incidentId }),
      accountId: h.otherAccountId,
    });
    expect(outcome.status).toBe('skipped');
    expect(await h.notes(ticketId)).toHaveLength(0);
    expect(await h.db.prisma.incidentLink.count({ where: { accountId: h.otherAccountId } })).toBe(
      0,
    );
  });
});
