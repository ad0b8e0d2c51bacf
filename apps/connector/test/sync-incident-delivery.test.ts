// The handler fed with what the incident sandbox really delivers: its envelopes, its ids (the list
// id in events, the inc_ reference from the report), its omitted optional fields, its comment echo.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS } from '@incident-desk/incident-api';
import { handleIncidentEvent } from './support/run-incident-event';
import { handleTicketEvent } from '../src/sync/ticket-events';
import type { SyncOutcome } from '../src/worker/job-outcome';
import { startHarness, type Harness } from './sync-incident-harness';
import { backends } from './support/test-database';

describe.each(backends)('incident events as the sandbox delivers them on %s', (backend) => {
  let h: Harness;
  let receiver: Server;
  const delivered: Record<string, unknown>[] = [];
  const deps = () => ({ db: h.db, unlinkedWaitMs: 10, pollIntervalMs: 10 });

  beforeAll(async () => {
    h = await startHarness(backend);
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        delivered.push(
          JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
        );
        res.writeHead(200).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    await h
      .context()
      .incidents()
      .webhooks.create({
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/incident`,
        events: WEBHOOK_EVENTS.filter((name) => name !== 'webhook.test'),
        description: 'sync-incident-delivery test',
      });
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver?.close(resolve));
    await h?.close();
  });

  it('a reported incident: every delivered event lands on its ticket once, in status order, without echoes', async () => {
    const ctx = h.context();
    const incidents = ctx.incidents();
    // every optional payload field present, so the echo check has the history message to compare
    await fetch(`${h.incidentUrl}/_sandbox/settings`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ omitOptionalPayloadFields: 'never' }),
    });
    const created = await h.zendesk.tickets.create({
      subject: 'Phish',
      comment: { body: 'please report' },
    });
    const ticketId = created.ticket.id;
    const report = await incidents.incidents.reportTakedown({
      url: `https://real${h.uid()}.example.org/login`,
    });
    const detail = await incidents.incidents.retrieve(report.id);
    expect(detail.id).not.toBe(report.id);
    await h.db.prisma.incidentLink.create({
      data: {
        accountId: h.accountId,
        incidentId: detail.id,
        reportRef: report.id,
        ticketId: BigInt(ticketId),
      },
    });

    // what the ticket -> incident direction does when it forwards an agent reply
    const reply = 'We have seen this page collecting card numbers since Monday.';
    await h.db.prisma.echoLedgerEntry.create({
      data: {
        accountId: h.accountId,
        kind: 'incident_comment',
        target: report.id,
        text: reply,
        settledAt: new Date(),
      },
    });
    await incidents.incidents.comment(report.id, { comment: reply, author: 'alex@example.com' });

    const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
    for (const step of [
      { status: 'case_building', message: 'Analyst reviewing the page.' },
      { status: 'takedown_in_progress' },
      { status: 'action_required', waitForClient: 'Please confirm you own the brand.' },
      { status: 'takedown_in_progress' },
      { status: 'takedown_success' },
    ]) {
      await pause();
      await h.control(`/_sandbox/incidents/${detail.id}/advance`, step);
    }
    await h.incidentSandbox.idle();
    const events = delivered.filter(
      (event) => (event.data as { incidentId?: string } | undefined)?.incidentId === detail.id,
    );
    expect(events.length).toBeGreaterThan(8);

    const run = async (envelopes: Record<string, unknown>[]) => {
      const outcomes: SyncOutcome[] = [];
      for (const event of envelopes) {
        outcomes.push(
          await handleIncidentEvent(deps(), ctx, {
            accountId: h.accountId,
            receivedAt: new Date().toISOString(),
            event,
          }),
        );
      }
      return outcomes;
    };
    const outcomes = await run(events);
    expect(outcomes.filter((o) => o.status === 'failed_permanently')).toEqual([]);
    expect(outcomes).toContainEqual({
      status: 'skipped',
      reason: 'history entry echoes a comment the connector posted',
    });
    expect(outcomes).toContainEqual({
      status: 'skipped',
      reason: `incident ${detail.id} already linked to ticket ${ticketId}`,
    });
    const notes = await h.notes(ticketId);
    // every applied event keeps its change; each with something to tell is one note (applied
    // after every move, the first takedown update already told what the later ones brought)
    const changes = await h.db.prisma.pendingTicketChange.findMany({
      where: { accountId: h.accountId, ticketId: BigInt(ticketId) },
    });
    expect(changes).toHaveLength(outcomes.filter((o) => o.status === 'applied').length);
    expect(notes).toHaveLength(changes.filter((change) => change.entry !== null).length);
    expect(notes.join('\n')).toContain('Takedown attempts 1 to 2 sent to the registrar.');
    expect(notes.some((note) => note.includes(reply))).toBe(false); // the echo of our own comment
    const ticket = await h.ticket(ticketId);
    expect(h.fieldValue(ticket, h.seed.statusFieldId)).toBe('incident_status_takedown_success');
    expect((await h.allTickets()).filter((t) => t.tags.includes('incident_detected'))).toHaveLength(
      0,
    );

    // redelivered, newest first: nothing is written twice and nothing moves back
    const replay = await run([...events].reverse());
    expect(replay.filter((o) => o.status === 'applied')).toEqual([]);
    expect(await h.notes(ticketId)).toHaveLength(notes.length);
    expect(h.fieldValue(await h.ticket(ticketId), h.seed.statusFieldId)).toBe(
      'incident_status_takedown_success',
    );
  });

  it.each(['takedown', 'monitor'] as const)(
    "the connector's own %s report: its incident.created and its history entry leave the linked ticket alone; later entries still become notes",
    async (mode) => {
      const ctx = h.context();
      await fetch(`${h.incidentUrl}/_sandbox/settings`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ omitOptionalPayloadFields: 'never' }),
      });
      const created = await h.zendesk.tickets.create({
        subject: 'Phish',
        comment: { body: 'A customer forwarded this login page to us this morning.' },
        custom_fields: [{ id: h.seed.threatFieldId, value: `https://own${h.uid()}.example.org/` }],
        tags: ['incident_submit'],
      });
      const ticketId = created.ticket.id;
      const reported = await handleTicketEvent({ db: h.db }, ctx, {
        accountId: h.accountId,
        receivedAt: new Date().toISOString(),
        body: { kind: 'report', ticketId, mode },
      });
      expect(reported.status).toBe('applied');
      const link = await h.db.prisma.incidentLink.findUniqueOrThrow({
        where: { accountId_ticketId: { accountId: h.accountId, ticketId: BigInt(ticketId) } },
      });
      await h.control(`/_sandbox/incidents/${link.incidentId}/advance`, {
        status: 'case_building',
        message: 'Analyst reviewing the page.',
      });
      await h.incidentSandbox.idle();
      const events = delivered.filter(
        (event) =>
          (event.data as { incidentId?: string } | undefined)?.incidentId === link.incidentId,
      );
      const history = (event: Record<string, unknown>) =>
        (event.data as { historyEntry?: { message?: string } }).historyEntry?.message;
      const reportEntry =
        mode === 'takedown' ? 'Incident reported for takedown' : 'Incident reported for monitoring';
      expect(events.map(history)).toContain(reportEntry);
      expect(events.map((event) => event.event)).toContain('incident.created');
      const notesBefore = (await h.notes(ticketId)).length;

      const outcomes = new Map<string, SyncOutcome>();
      for (const event of events) {
        const outcome = await handleIncidentEvent(deps(), ctx, {
          accountId: h.accountId,
          receivedAt: new Date().toISOString(),
          event,
        });
        outcomes.set(`${String(event.event)} ${history(event) ?? ''}`, outcome);
      }
      expect(outcomes.get(`incident.history_created ${reportEntry}`)).toEqual({
        status: 'skipped',
        reason: "history entry the ticket's own report produced",
      });
      expect(outcomes.get('incident.created ')?.status).toBe('skipped');
      expect(outcomes.get('incident.history_created Analyst reviewing the page.')?.status).toBe(
        'applied',
      );
      const notes = (await h.notes(ticketId)).slice(notesBefore);
      expect(notes.some((note) => note.includes(reportEntry))).toBe(false);
      expect(notes.some((note) => note.includes('Analyst reviewing the page.'))).toBe(true);
    },
  );
});
