// What the sidebar's status card says beyond the service's answer: the analyst's request of the
// newest incident.action_required event (the incident's own history may hold only "Waiting for
// action from you"), recorded when the event is applied, and the action a report asked for,
// recorded with the link; both carried by the ticket view.
import { describe, expect, it } from 'vitest';
import { ZSidebarTicketView } from '@incident-desk/sidebar-contract';
import { buildTicketView } from '../src/sidebar-api/ticket-view';
import { ANALYST_REQUEST_MAX_CHARS } from '../src/sync/incident-events/apply-linked-event';
import { reportThreat } from '../src/sync/ticket-events/report-flow';
import { handleIncidentEvent } from './support/run-incident-event';
import { startHarness } from './sync-incident-harness';
import { backends } from './support/test-database';
import { startedForTests } from './support/started-for-tests';

const at = (iso: string) => ({ timestamp: iso });

describe.each(backends)('the analyst’s request in the ticket view on %s', (backend) => {
  const h = startedForTests(() => startHarness(backend));
  const deps = () => ({ db: h.db, unlinkedWaitMs: 10, pollIntervalMs: 10 });

  async function viewOf(ticketId: number) {
    const ticket = await h.ticket(ticketId);
    const view = await buildTicketView(h.db, h.context(), ticket, new Date());
    // the sidebar reads it as the connector wrote it
    return ZSidebarTicketView.parse(JSON.parse(JSON.stringify(view)));
  }

  it('keeps the newest action_required request for the view; an older one delivered late changes nothing', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    expect((await viewOf(ticketId)).analystRequest).toBeNull();

    await handleIncidentEvent(
      deps(),
      h.context(),
      h.job(
        'incident.action_required',
        { incidentId, waitForClient: 'Send the signed <b>authorisation</b> letter' },
        at('2030-08-01T10:00:00Z'),
      ),
    );
    expect((await viewOf(ticketId)).analystRequest).toEqual({
      text: 'Send the signed <b>authorisation</b> letter',
      at: '2030-08-01T10:00:00.000Z',
    });

    await handleIncidentEvent(
      deps(),
      h.context(),
      h.job(
        'incident.action_required',
        { incidentId, waitForClient: 'An older request' },
        at('2030-08-01T09:00:00Z'),
      ),
    );
    expect((await viewOf(ticketId)).analystRequest?.text).toBe(
      'Send the signed <b>authorisation</b> letter',
    );

    // a newer event without a reason: the old request is no longer what the analyst waits for
    await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.action_required', { incidentId }, at('2030-08-02T10:00:00Z')),
    );
    expect((await viewOf(ticketId)).analystRequest).toEqual({
      text: null,
      at: '2030-08-02T10:00:00.000Z',
    });
  });

  it('caps a long request, and never shows one on a ticket whose field names another incident', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.action_required', { incidentId, waitForClient: 'x'.repeat(5_000) }),
    );
    const text = (await viewOf(ticketId)).analystRequest?.text ?? '';
    expect(text.length).toBe(ANALYST_REQUEST_MAX_CHARS);
    expect(text.endsWith('…')).toBe(true);

    // the agent points the Incident ID field elsewhere: the link's records are not that incident's
    await h.zendesk.tickets.update(ticketId, {
      custom_fields: [{ id: h.seed.incidentFieldId, value: 'inc_typed_by_hand' }],
    });
    expect((await viewOf(ticketId)).analystRequest).toBeNull();
  });

  it('is another account’s request for no one: the link of account B is not read', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    await handleIncidentEvent(
      deps(),
      h.otherContext(),
      h.job('incident.action_required', { incidentId, waitForClient: 'Not yours' }),
    );
    expect((await viewOf(ticketId)).analystRequest).toBeNull();
  });

  it('a report for monitoring is shown as requested with the status the incident had right after it', async () => {
    for (const mode of ['monitor', 'takedown'] as const) {
      const url = `https://requested-${mode}-${h.uid()}.example.org/login`;
      const created = await h.zendesk.tickets.create({
        subject: 'Phishing site',
        comment: { body: 'Please look at this.' },
        custom_fields: [{ id: h.seed.threatFieldId, value: url }],
      });
      const ticketId = created.ticket.id;
      const before = new Date();
      expect((await reportThreat({ db: h.db }, h.context(), ticketId, mode)).status).toBe(
        'applied',
      );
      const view = await viewOf(ticketId);
      expect(view.ticket.linkState).toBe('linked');
      expect(view.requestedAction).toMatchObject({ action: mode, status: 'pending_review' });
      expect(Date.parse(view.requestedAction!.at)).toBeGreaterThanOrEqual(before.getTime());
    }
  });
});
