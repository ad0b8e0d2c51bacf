// What the connector itself sent to an incident, a short agent reply, a requested action or a
// takedown approval, comes back as incident.history_created in the service's words; the ticket
// that sent it gets no echo note, while an analyst's entry still becomes one. The service emits the
// echo at once: an event handled while the call is still under way (its ledger entry unsettled)
// waits for the call, on any process, but not for a caller that died. Sending costs one call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleIncidentEvent, handleOnce } from './support/run-incident-event';
import { createIncidentClient } from '@incident-desk/incident-api';
import { DEMO_API_KEY } from '@incident-desk/incident-sandbox';
import type { AccountContext } from '../src/accounts/account-context';
import { approveTakedown } from '../src/sidebar-api/ticket-actions';
import { callAsOwn, OwnIncidentCallPendingError } from '../src/sync/echo-ledger';
import type { SyncOutcome } from '../src/worker/job-outcome';
import { handleTicketEvent } from '../src/sync/ticket-events';
import type { TicketEventJob } from '../src/jobs/ticket-event-job';
import { startHarness, type Harness } from './sync-incident-harness';
import { backends } from './support/test-database';

describe.each(backends)('echoes of what the connector sent on %s', (backend) => {
  let h: Harness;
  const deps = () => ({ db: h.db, unlinkedWaitMs: 10, pollIntervalMs: 10 });

  beforeAll(async () => {
    h = await startHarness(backend);
  });
  afterAll(() => h?.close());

  const ticketJob = (body: TicketEventJob['body']): TicketEventJob => ({
    accountId: h.accountId,
    receivedAt: new Date().toISOString(),
    body,
  });

  /** The history_created event the service emits for its newest history entry. */
  async function latestHistoryEvent(incidentId: string) {
    const detail = await h.context().incidents().incidents.retrieve(incidentId);
    const message = detail.history[0]!.message;
    return {
      message,
      job: h.job('incident.history_created', { incidentId, historyEntry: { message } }),
    };
  }

  /** A ticket reported for monitoring, linked to its incident in the sandbox. */
  async function reportedTicket() {
    const ctx = h.context();
    const created = await h.zendesk.tickets.create({
      subject: 'Phishing',
      comment: { body: 'Please take this down.' },
      custom_fields: [{ id: h.seed.threatFieldId, value: `https://echo${h.uid()}.example.org/` }],
    });
    const ticketId = created.ticket.id;
    expect(
      (
        await handleTicketEvent(
          { db: h.db },
          ctx,
          ticketJob({ kind: 'report', ticketId, mode: 'monitor' }),
        )
      ).status,
    ).toBe('applied');
    const { incidentId } = await h.db.prisma.incidentLink.findFirstOrThrow({
      where: { accountId: h.accountId, ticketId: BigInt(ticketId) },
    });
    return { ctx, ticketId, incidentId };
  }

  const callsInFlight = (incidentId: string) =>
    h.db.prisma.echoLedgerEntry.count({
      where: { accountId: h.accountId, target: incidentId, settledAt: null },
    });
  const sendAsOwn = <T>(incidentId: string, send: () => Promise<T>) =>
    callAsOwn(h.db, { accountId: h.accountId, incidentId }, send);

  it('a short reply and an action tag bring no echo notes; an analyst entry does', async () => {
    const { ctx, ticketId, incidentId } = await reportedTicket();
    const notesAfterReport = (await h.notes(ticketId)).length;

    // a reply shorter than 24 characters
    await h.zendesk.tickets.update(ticketId, {
      comment: { body: 'ok thx', public: true, author_id: h.seed.agentIds[0] },
    });
    expect(
      (await handleTicketEvent({ db: h.db }, ctx, ticketJob({ kind: 'comment', ticketId }))).status,
    ).toBe('applied');
    const reply = await latestHistoryEvent(incidentId);
    expect(reply.message).toBe('Comment: ok thx');
    expect(await handleIncidentEvent(deps(), ctx, reply.job)).toMatchObject({ status: 'skipped' });

    // an action tag: the request's own history entry is no news either
    await h.zendesk.tickets.update(ticketId, { additional_tags: ['incident_request_takedown'] });
    expect(
      (
        await handleTicketEvent(
          { db: h.db },
          ctx,
          ticketJob({ kind: 'action', ticketId, action: 'tkd' }),
        )
      ).status,
    ).toBe('applied');
    const action = await latestHistoryEvent(incidentId);
    expect(action.message).toBe('Takedown requested by client');
    expect(await handleIncidentEvent(deps(), ctx, action.job)).toMatchObject({
      status: 'skipped',
    });
    const notes = await h.notes(ticketId);
    expect(notes.join('\n')).not.toContain('Incident update: Comment: ok thx');
    expect(notes.join('\n')).not.toContain('Takedown requested by client');
    expect(notes).toHaveLength(notesAfterReport + 1); // "Takedown requested for incident …"

    // what the connector did not send still reaches the ticket, however short
    const analyst = await handleIncidentEvent(
      deps(),
      ctx,
      h.job('incident.history_created', { incidentId, historyEntry: { message: 'ok' } }),
    );
    expect(analyst.status).toBe('applied');
    const analystEntry = await handleIncidentEvent(
      deps(),
      ctx,
      h.job('incident.history_created', {
        incidentId,
        historyEntry: { message: 'Analyst: registrar contacted' },
      }),
    );
    expect(analystEntry.status).toBe('applied');
    expect((await h.notes(ticketId)).at(-1)).toContain('Analyst: registrar contacted');
  });

  it('the comment a report carried never absorbs another entry by its time: a system entry right after the report is news, with or without its message', async () => {
    // the ticket's first comment rode inside the report (the service keeps it among the
    // incident's comments, with no history entry of its own)
    const { ctx, ticketId, incidentId } = await reportedTicket();
    const before = (await h.notes(ticketId)).length;
    // a partner lists the site: a history entry with no author, seconds after the report
    await h.incidentControl(`/incidents/${incidentId}/blocklists`, {
      authority: 'Netcraft',
      type: 'blocklist',
      status: 'submitted',
    });
    const listed = await latestHistoryEvent(incidentId);
    expect(listed.message).toBe('Submitted to Netcraft');
    expect((await handleIncidentEvent(deps(), ctx, listed.job)).status).toBe('applied');
    await h.incidentControl(`/incidents/${incidentId}/blocklists`, {
      authority: 'PhishTank',
      type: 'blocklist',
      status: 'submitted',
    });
    // the same entry announced without its message, and dated a moment after it
    const entry = (await ctx.incidents().incidents.retrieve(incidentId)).history[0]!;
    const withoutMessage = h.job(
      'incident.history_created',
      { incidentId },
      { timestamp: new Date(new Date(entry.timestamp).getTime() + 3).toISOString() },
    );
    expect((await handleIncidentEvent(deps(), ctx, withoutMessage)).status).toBe('applied');
    const notes = await h.notes(ticketId);
    expect(notes).toHaveLength(before + 2);
    expect(notes.at(-2)).toContain('Submitted to Netcraft');
    expect(notes.at(-1)).toContain('Submitted to PhishTank');
  });

  it("an event without its message dated away from every entry is not taken for the report's echo: its line stays, without words", async () => {
    const { ctx, ticketId, incidentId } = await reportedTicket();
    const before = await h.notes(ticketId);
    // dated an hour after the report: the nearest entry is the report's own, but not of its moment
    const late = h.job(
      'incident.history_created',
      { incidentId },
      { timestamp: new Date(Date.now() + 3_600_000).toISOString() },
    );
    expect((await handleIncidentEvent(deps(), ctx, late)).status).toBe('applied');
    const notes = await h.notes(ticketId);
    expect(notes).toHaveLength(before.length + 1);
    expect(notes.at(-1)).not.toContain('Incident reported');
  });

  it('an echo handled while the call is under way is not noted; an analyst entry of that moment is', async () => {
    const { ctx, ticketId, incidentId } = await reportedTicket();
    const notesBefore = (await h.notes(ticketId)).length;
    let echo: Promise<SyncOutcome> | undefined;
    let analyst: Promise<SyncOutcome> | undefined;
    await sendAsOwn(incidentId, async () => {
      await ctx.incidents().incidents.requestTakedown(incidentId);
      // the service's event is handled before the call has recorded what it produced
      const own = await latestHistoryEvent(incidentId);
      expect(own.message).toBe('Takedown requested by client');
      await expect(handleOnce(deps(), ctx, own.job)).rejects.toThrow(OwnIncidentCallPendingError);
      echo = handleIncidentEvent(deps(), ctx, own.job);
      // and an analyst writes at the same moment
      await h.control(`/_sandbox/incidents/${incidentId}/advance`, {
        status: 'case_building',
        message: 'Analyst: registrar contacted',
        force: true,
      });
      const theirs = await latestHistoryEvent(incidentId);
      expect(theirs.message).toBe('Analyst: registrar contacted');
      // both are held back while the call is under way, each time they run
      await expect(handleOnce(deps(), ctx, theirs.job)).rejects.toThrow(
        OwnIncidentCallPendingError,
      );
      analyst = handleIncidentEvent(deps(), ctx, theirs.job);
      expect(await callsInFlight(incidentId)).toBe(1);
    });
    expect(await callsInFlight(incidentId)).toBe(0);
    expect(await echo).toMatchObject({ status: 'skipped' });
    expect(await analyst).toMatchObject({ status: 'applied' });
    const notes = await h.notes(ticketId);
    expect(notes.join('\n')).not.toContain('Takedown requested by client');
    expect(notes).toHaveLength(notesBefore + 1);
    expect(notes.at(-1)).toContain('Analyst: registrar contacted');
  });

  it('a call that fails leaves nothing that holds events back', async () => {
    const { incidentId } = await reportedTicket();
    const failure = new Error('the service refused');
    await expect(sendAsOwn(incidentId, () => Promise.reject(failure))).rejects.toBe(failure);
    expect(await callsInFlight(incidentId)).toBe(0);
  });

  it("a caller that died holds its incident's history events back for a bounded time only", async () => {
    const ctx = h.context();
    const { incidentId, ticketId } = await h.linkedTicket();
    const marker = await h.db.prisma.echoLedgerEntry.create({
      data: { accountId: h.accountId, kind: 'incident_action', target: incidentId },
    });
    const job = h.job('incident.history_created', {
      incidentId,
      historyEntry: { message: 'Takedown requested by client' },
    });
    // still recent: the entry may be that call's echo, so the job is deferred (handed back, to look
    // again after the poll interval) instead of waiting in its slot
    const deferral = await handleOnce(deps(), ctx, job).catch((error: unknown) => error);
    expect(deferral).toBeInstanceOf(OwnIncidentCallPendingError);
    expect((deferral as OwnIncidentCallPendingError).delayMs).toBe(deps().pollIntervalMs);
    expect(await h.notes(ticketId)).toHaveLength(0);
    // the retry, once the marker is older than its bound: the caller recorded nothing, so the entry
    // is news (best effort)
    await h.db.prisma.echoLedgerEntry.update({
      where: { id: marker.id },
      data: { sentAt: new Date(Date.now() - 61_000) },
    });
    // applied at its first run: the dead caller's marker no longer holds it back
    expect(await handleOnce(deps(), ctx, job)).toMatchObject({ status: 'applied' });
    expect((await h.notes(ticketId)).at(-1)).toContain('Takedown requested by client');
  });

  it('an approval costs one call to the incident service, and its history echo brings no note', async () => {
    const { ctx, ticketId, incidentId } = await reportedTicket();
    await h.control(`/_sandbox/incidents/${incidentId}/advance`, {
      status: 'approval_required',
      force: true,
    });
    const notesBefore = (await h.notes(ticketId)).length;
    const requests: string[] = [];
    const counted: AccountContext = {
      ...ctx,
      incidents: (clientId) =>
        createIncidentClient({
          baseURL: h.incidentUrl,
          apiKey: DEMO_API_KEY,
          ...(clientId ? { clientId } : {}),
          retry: false,
          fetch: (input, init) => {
            requests.push(`${init.method ?? 'GET'} ${new URL(input).pathname}`);
            return fetch(input, init);
          },
        }),
    };
    const agentEmail = `agent${h.uid()}@example.com`;
    const caller = { ctx: counted, ticketId, agentId: 1, agentEmail, agentName: 'Agent' };
    const approved = await approveTakedown(h.db, caller, await h.ticket(ticketId), agentEmail);
    expect(approved).toEqual({ status: 200, message: 'takedown approved' });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatch(new RegExp(`^POST .*/incident/${incidentId}/approve-takedown$`));
    expect(await callsInFlight(incidentId)).toBe(0);

    const echo = await latestHistoryEvent(incidentId);
    expect(echo.message).toBe(`Takedown approved by ${agentEmail}`);
    expect(await handleIncidentEvent(deps(), ctx, echo.job)).toMatchObject({ status: 'skipped' });
    // applied again (a redelivery), it is still the approval's echo
    expect(await handleIncidentEvent(deps(), ctx, echo.job)).toMatchObject({ status: 'skipped' });
    // the same words from an analyst (another author) are news
    await h.control(`/_sandbox/incidents/${incidentId}/history`, {
      message: `Takedown approved by ${agentEmail}`,
    });
    const analyst = await latestHistoryEvent(incidentId);
    expect(await handleIncidentEvent(deps(), ctx, analyst.job)).toMatchObject({
      status: 'applied',
    });
    const notes = await h.notes(ticketId);
    expect(notes).toHaveLength(notesBefore + 1);
    expect(notes.at(-1)).toContain('Analyst: Takedown approved by agent'); // the address defanged
  });
});
