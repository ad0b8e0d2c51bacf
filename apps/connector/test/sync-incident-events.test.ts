import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleIncidentEvent } from '../src/sync/incident-events/handle-incident-event';
import { recordReportOwnHistory } from '../src/sync/report-own-history';
import { startHarness, type Harness } from './sync-incident-harness';
import { backends } from './support/test-database';

const at = (iso: string) => ({ timestamp: iso });

describe.each(backends)('incident events for linked tickets on %s', (backend) => {
  let h: Harness;
  const deps = () => ({ db: h.db, unlinkedWaitMs: 10, claimWaitMs: 2_000, pollIntervalMs: 10 });

  beforeAll(async () => {
    h = await startHarness(backend);
  }, 60_000);
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
    expect(h.fieldValue(ticket, h.seed.statusFieldId)).toBe('takedown_success');
    expect(ticket.status).not.toBe('solved');
    const notes = await h.notes(ticketId);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('Incident status changed to takedown_success.');
    const state = await h.db.prisma.ticketSyncState.findFirstOrThrow({
      where: { accountId: h.accountId, ticketId: BigInt(ticketId) },
    });
    expect(state.lastStatus).toBe('takedown_success');
  });

  it('an event for a ticket closed in Zendesk fails for good, saying why', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    await h.context().zendesk.tickets.update(ticketId, { status: 'closed' });
    const outcome = await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.status_changed', { incidentId, status: 'takedown_success' }),
    );
    expect(outcome).toEqual({
      status: 'failed_permanently',
      reason: expect.stringContaining('Status: closed prevents ticket update'),
    });
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
    expect(h.fieldValue(ticket, h.seed.statusFieldId)).toBe('takedown_success');
    expect(ticket.status).toBe('solved');
    const notes = await h.notes(ticketId);
    expect(notes).toHaveLength(2);
    expect(notes[1]).toContain(
      'older than one already applied; the Status field stays takedown_success',
    );

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

  it('applying the same job twice writes one note', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    const job = h.job('incident.takedown_updated', { incidentId });
    expect((await handleIncidentEvent(deps(), h.context(), job)).status).toBe('applied');
    expect(await handleIncidentEvent(deps(), h.context(), job)).toEqual({
      status: 'skipped',
      reason: `note already on ticket ${ticketId}`,
    });
    const status = h.job('incident.status_changed', { incidentId, status: 'closed' });
    await handleIncidentEvent(deps(), h.context(), status);
    await handleIncidentEvent(deps(), h.context(), status);
    expect(await h.notes(ticketId)).toHaveLength(2);
  });

  it('a retry after an update that never reached Zendesk writes the note', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    const job = h.job('incident.takedown_updated', { incidentId });
    const ref = job.event.id as string;
    // what a crashed first attempt leaves: the own-note record, but no note on the ticket
    await h.db.prisma.ownNote.create({
      data: {
        accountId: h.accountId,
        ticketId: BigInt(ticketId),
        text: `[incident-desk] lost\n\nIncident: ${incidentId}\nEvent: ${ref}`,
      },
    });
    expect((await handleIncidentEvent(deps(), h.context(), job)).status).toBe('applied');
    expect(await h.notes(ticketId)).toHaveLength(1);
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
    expect(h.fieldValue(await h.ticket(ticketId), h.seed.statusFieldId)).toBe('blocklisted');
    expect((await h.notes(ticketId))[0]).toContain('Incident status changed to blocklisted.');
  });

  it('a Zendesk outage is a transient failure: the job throws, and its retry writes one note', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    const job = h.job('incident.status_changed', { incidentId, status: 'pre_weaponised' });
    await h.zendeskFault({
      method: 'PUT',
      path: `/api/v2/tickets/${ticketId}.json`,
      kind: 'error',
      status: 503,
      times: 1,
    });
    await expect(handleIncidentEvent(deps(), h.context(), job)).rejects.toThrow();
    expect(await h.notes(ticketId)).toHaveLength(0);
    expect((await handleIncidentEvent(deps(), h.context(), job)).status).toBe('applied');
    expect(await h.notes(ticketId)).toHaveLength(1);
    expect(h.fieldValue(await h.ticket(ticketId), h.seed.statusFieldId)).toBe('pre_weaponised');
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
    expect(notes[0]).toContain('Incident update:\nRegistrar contacted.');
    expect(notes[1]).toContain('The incident was updated (no message was given).');
    expect(notes[2]).toContain('The incident was updated (no message was given).');
  });

  it('history_created echoing a comment the connector posted is skipped (exact, or contains from 24 characters)', async () => {
    const { incidentId, ticketId } = await h.linkedTicket({ reportRef: `inc_${h.uid()}` });
    const link = await h.db.prisma.incidentLink.findFirstOrThrow({
      where: { accountId: h.accountId, incidentId },
    });
    await h.db.prisma.postedIncidentComment.createMany({
      data: [
        { accountId: h.accountId, incidentId, text: 'Thanks!' },
        // posted under the report reference: still the same incident
        {
          accountId: h.accountId,
          incidentId: link.reportRef!,
          text: 'We confirmed the page is still collecting passwords today.',
        },
        { accountId: h.accountId, incidentId, text: 'ok' },
      ],
    });
    const run = (message: string) =>
      handleIncidentEvent(
        deps(),
        h.context(),
        h.job('incident.history_created', { incidentId, historyEntry: { message } }),
      );
    expect((await run('Thanks!')).status).toBe('skipped');
    expect((await run('Thanks!\u00a0 ')).status).toBe('skipped');
    expect(
      (await run('Client comment: We confirmed the page is still collecting passwords today.'))
        .status,
    ).toBe('skipped');
    // short texts only match exactly
    expect((await run('ok, the analyst will look at it')).status).toBe('applied');
    expect((await run('Thanks! We are on it.')).status).toBe('applied');
    expect(await h.notes(ticketId)).toHaveLength(2);
  });

  it("the report's own history entry is skipped only on an exact match, for its incident, while it is recent", async () => {
    const { incidentId, ticketId } = await h.linkedTicket({ reportRef: `inc_${h.uid()}` });
    const link = await h.db.prisma.incidentLink.findFirstOrThrow({
      where: { accountId: h.accountId, incidentId },
    });
    await recordReportOwnHistory(h.db, h.accountId, link.reportRef!, [
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

  it('takedown_updated writes a takedown note', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.takedown_updated', { incidentId }),
    );
    expect((await h.notes(ticketId))[0]).toContain(
      'Takedown processing for this incident changed.',
    );
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
    expect(notes[0]).toContain('Reason: Send proof of brand ownership');
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
      h.job('incident.takedown_updated', { incidentId: reportRef }),
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
