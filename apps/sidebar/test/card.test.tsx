// The status card says who acts, what is happening and offers the one action
// that fits; the other applicable actions are under "More actions"; the rest is collapsed.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { clientServing, expandSection, renderSidebar } from './render';
import { detailedIncident, linkedView } from './fixtures';
import type { TSidebarTicketView, TUnavailablePart } from '@incident-desk/sidebar-contract';

async function showCard(view: TSidebarTicketView) {
  renderSidebar(clientServing(view));
  return screen.findByTestId('status-card');
}

const withStatus = (status: string, overrides: Partial<TSidebarTicketView> = {}) =>
  linkedView({ incident: detailedIncident({ status }), ...overrides });

async function moreActionNames(card: HTMLElement): Promise<string[]> {
  const trigger = within(card).queryByRole('button', { name: 'More actions' });
  if (!trigger) return [];
  fireEvent.click(trigger);
  const items = await screen.findAllByRole('menuitem');
  const names = items.map((item) => item.textContent ?? '');
  fireEvent.keyDown(items[0]!, { key: 'Escape' });
  return names;
}

describe('status card, per status', () => {
  it.each([
    [
      'pending_review',
      'Pending review',
      'In progress',
      'blue',
      null,
      ['Request takedown', 'Move to monitoring', 'Mark safe'],
    ],
    [
      'case_building',
      'Case building',
      'In progress',
      'blue',
      null,
      ['Move to monitoring', 'Mark safe'],
    ],
    [
      'approval_required',
      'Approval required',
      'Needs you',
      'yellow',
      'Approve takedown · uses 1 of 5 credits',
      ['Move to monitoring', 'Mark safe'],
    ],
    ['takedown_ready', 'Takedown ready', 'In progress', 'blue', null, []],
    [
      'pre_weaponised',
      'Monitoring',
      'In progress',
      'blue',
      null,
      ['Request takedown', 'Mark safe'],
    ],
    ['takedown_in_progress', 'Takedown in progress', 'In progress', 'blue', null, []],
    ['takedown_success', 'Taken down', 'Done', 'green', null, []],
    [
      'takedown_attempt_failed',
      'Takedown failed',
      'Failed',
      'red',
      null,
      ['Request takedown', 'Move to monitoring', 'Mark safe'],
    ],
    ['blocklisted', 'Blocklisted', 'Done', 'green', null, ['Request takedown', 'Mark safe']],
    [
      'action_required',
      'Action required',
      'Needs you',
      'yellow',
      null,
      ['Move to monitoring', 'Mark safe'],
    ],
    // the tag says it: "Closed · Closed" would say it twice
    ['closed', 'Closed', null, 'grey', null, []],
  ] as const)(
    '%s: tag "%s" (%s, %s), primary %j, more %j',
    async (status, label, actor, hue, primary, more) => {
      const card = await showCard(withStatus(status));
      const tag = within(card).getByTestId('status').querySelector('[data-actor]')!;
      expect(tag.textContent).toBe(label);
      expect(tag.getAttribute('data-actor')).toBe(
        { yellow: 'needs_you', blue: 'in_progress', green: 'done', red: 'failed', grey: 'closed' }[
          hue
        ],
      );
      expect(within(card).queryByTestId('actor')?.textContent ?? null).toBe(actor);
      expect(within(card).getByTestId('status-sentence').textContent).not.toBe('');
      const actions = within(card).getByTestId('actions');
      const buttons = within(actions)
        .queryAllByRole('button')
        .filter((b) => b.textContent !== 'More actions');
      expect(buttons.map((b) => b.textContent)).toEqual(primary ? [primary] : []);
      expect(await moreActionNames(card)).toEqual(more);
    },
  );

  it('keeps the incident id and the threat on the card', async () => {
    const card = await showCard(withStatus('takedown_success'));
    expect(within(card).getByTestId('incident-id').textContent).toContain('inc_123');
    expect(within(card).getByTestId('subject').textContent).toContain(
      'hxxps[:]//login[.]acme-secure[.]example/verify',
    );
  });

  const actionRequired = detailedIncident({
    status: 'action_required',
    history: [
      { timestamp: '2026-11-01T10:00:00.000Z', message: 'Incident reported' },
      // what the service writes in the history when the analyst gives the reason elsewhere
      { timestamp: '2026-11-04T10:00:00.000Z', message: 'Waiting for action from you' },
    ],
  });

  it('shows what the analyst asked (the event’s request), as defanged text, and that a public reply answers it', async () => {
    const card = await showCard(
      linkedView({
        incident: actionRequired,
        analystRequest: {
          text: 'Please upload a <b>letter</b> of authorisation for https://evil.example',
          at: '2026-11-04T10:00:00.000Z',
        },
      }),
    );
    const block = within(card).getByTestId('action-required');
    expect(block.textContent).toContain('What the analyst asks');
    const reason = within(block).getByTestId('service-reason');
    expect(reason.textContent).toBe(
      'Please upload a <b>letter</b> of authorisation for hxxps[:]//evil[.]example',
    );
    expect(reason.querySelector('b, a')).toBeNull();
    expect(reason.textContent).not.toContain('Waiting for action from you');
    // the connector's note says the same: a public reply reaches the analyst
    expect(within(block).getByTestId('action-required-how').textContent).toBe(
      'Do what the analyst asks, then answer with a public reply on this ticket: incident-desk sends it to the incident as a comment, where the analyst reads it.',
    );
  });

  it('falls back to the newest history entry when the event named no request', async () => {
    const card = await showCard(
      linkedView({
        incident: actionRequired,
        analystRequest: { text: null, at: '2026-11-04T10:00:00.000Z' },
      }),
    );
    expect(within(card).getByTestId('service-reason').textContent).toBe(
      'Waiting for action from you',
    );
  });

  it('says when the analyst gave no reason on action_required', async () => {
    const card = await showCard(
      linkedView({ incident: detailedIncident({ status: 'action_required', history: [] }) }),
    );
    expect(within(card).getByTestId('service-reason').textContent).toBe(
      "The analyst did not say what they need; the incident's history may say more.",
    );
  });

  it('says "Marked safe" for an incident an agent marked safe, "Closed" once', async () => {
    const card = await showCard(
      withStatus('closed', {
        requestedAction: { action: 'safe', status: 'closed', at: '2026-11-04T10:00:00.000Z' },
      }),
    );
    const status = within(card).getByTestId('status');
    expect(status.querySelector('[data-actor]')!.textContent).toBe('Marked safe');
    expect(within(card).getByTestId('actor').textContent).toBe('Closed');
    expect(status.textContent!.match(/Closed/g)).toHaveLength(1);
  });

  it('shows monitoring as requested, and does not offer it again, until the status changes', async () => {
    const requestedAction = {
      action: 'monitor' as const,
      status: 'pending_review',
      at: '2026-11-04T10:00:00.000Z',
    };
    const card = await showCard(withStatus('pending_review', { requestedAction }));
    expect(within(card).getByTestId('requested').textContent).toContain('Monitoring requested');
    expect(await moreActionNames(card)).toEqual(['Request takedown', 'Mark safe']);
  });

  it('offers monitoring again once the incident has moved on from the status it was requested in', async () => {
    const requestedAction = {
      action: 'monitor' as const,
      status: 'pending_review',
      at: '2026-11-04T10:00:00.000Z',
    };
    const card = await showCard(withStatus('takedown_attempt_failed', { requestedAction }));
    expect(within(card).queryByTestId('requested')).toBeNull();
    expect(await moreActionNames(card)).toEqual([
      'Request takedown',
      'Move to monitoring',
      'Mark safe',
    ]);
  });

  it('puts a late-updates warning after the status and its action, compact, with the rest behind Details', async () => {
    const card = await showCard(
      linkedView({
        incident: detailedIncident({ status: 'approval_required' }),
        sync: {
          lastEventAppliedAt: null,
          pendingForwards: 0,
          failedForwards: [],
          waitingTicketUpdates: 2,
          waitingSince: new Date(Date.now() - 10 * 60_000).toISOString(),
          writesPausedUntil: null,
        },
      }),
    );
    const late = within(card).getByTestId('sync');
    expect(late.textContent).toContain('Ticket updates are late');
    // the status and the one action come first: a warning never pushes them down
    for (const first of [within(card).getByTestId('status'), within(card).getByTestId('actions')])
      expect(first.compareDocumentPosition(late) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // still on the card, before the collapsed details
    expect(
      screen.getByTestId('details').compareDocumentPosition(late) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeFalsy();
    // its explanation is one disclosure away
    const details = late.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')!.textContent).toBe('Details');
    expect(details.textContent).toContain('Nothing is lost');
  });
});

describe('approve on the card', () => {
  const approveButton = (card: HTMLElement) =>
    within(card).getByRole('button', { name: /^Approve takedown/ });

  it.each([
    [24, 'Approve takedown · uses 1 of 24 credits'],
    [1, 'Approve takedown · uses your last credit'],
    ['unlimited', 'Approve takedown'],
    [null, 'Approve takedown'],
  ] as const)('with %s credits reads "%s"', async (remainingCredits, label) => {
    const card = await showCard(
      linkedView({ usage: { clientId: 'c', clientName: 'Acme', remainingCredits } }),
    );
    expect(approveButton(card).textContent).toBe(label);
    expect(approveButton(card).hasAttribute('disabled')).toBe(false);
  });

  it.each([
    [24, 'The takedown will start in your name and uses 1 of 24 credits.'],
    [1, 'The takedown will start in your name and uses your last credit.'],
    ['unlimited', 'The takedown will start in your name.'],
    [null, 'The takedown will start in your name.'],
  ] as const)(
    'with %s credits, the confirmation says what the button says: "%s"',
    async (remainingCredits, body) => {
      const card = await showCard(
        linkedView({ usage: { clientId: 'c', clientName: 'Acme', remainingCredits } }),
      );
      fireEvent.click(approveButton(card));
      const dialog = await screen.findByRole('dialog');
      expect(dialog.textContent).toContain(body);
      expect(dialog.textContent).not.toContain('may use');
    },
  );

  it('says a credit may be used when the balance could not be read', async () => {
    const card = await showCard(
      linkedView({
        usage: null,
        unavailable: [{ part: 'usage', reason: 'temporarily_unavailable' }],
      }),
    );
    expect(approveButton(card).textContent).toBe('Approve takedown');
    fireEvent.click(approveButton(card));
    expect((await screen.findByRole('dialog')).textContent).toContain(
      'The takedown will start in your name, and may use a takedown credit.',
    );
  });

  it('is disabled with the reason when no credit is left', async () => {
    const card = await showCard(
      linkedView({ usage: { clientId: 'c', clientName: 'Acme', remainingCredits: 0 } }),
    );
    const button = approveButton(card);
    expect(button.hasAttribute('disabled')).toBe(true);
    const reason = within(card).getByTestId('primary-disabled-reason');
    expect(reason.textContent).toContain('No takedown credits left');
    expect(button.getAttribute('aria-describedby')).toBe(reason.id);
  });
});

describe('when the incident cannot be read', () => {
  it('keeps the incident id and the threat on screen, with the cause', async () => {
    const card = await showCard(
      linkedView({
        incident: null,
        unavailable: [{ part: 'incident', reason: 'temporarily_unavailable' }],
      }),
    );
    expect(within(card).getByTestId('incident-unavailable').textContent).toContain(
      'Temporarily unavailable',
    );
    expect(within(card).getByTestId('incident-id').textContent).toContain('inc_123');
    expect(within(card).getByTestId('subject').textContent).toContain('acme-secure[.]example');
    expect(within(card).queryByTestId('actions')).toBeNull();
  });

  it.each([
    [
      { reason: 'rate_limited', retryAfterSeconds: 17 },
      'limiting requests; it will be retried in 17 seconds',
    ],
    [{ reason: 'rate_limited' }, 'limiting requests; it will be retried on the next refresh'],
    [{ reason: 'not_found' }, 'Not found at the incident service'],
    [{ reason: 'a_reason_from_a_newer_connector' }, 'Temporarily unavailable'],
  ] as const)('names the cause %j', async (cause, text) => {
    const card = await showCard(
      linkedView({
        incident: null,
        unavailable: [{ part: 'incident', ...cause } as TUnavailablePart],
      }),
    );
    const shown = within(card).getByTestId('incident-unavailable').textContent;
    expect(shown).toContain(text);
    expect(within(card).getByTestId('incident-id').textContent).toContain('inc_123');
  });
});

describe('detail sections', () => {
  it('are collapsed on first load and open on request', async () => {
    await showCard(linkedView());
    const details = screen.getByTestId('details');
    for (const trigger of within(details).getAllByRole('button'))
      expect(trigger.getAttribute('aria-expanded')).toBe('false');
    const trigger = await expandSection('History');
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getAllByRole('listitem').length).toBeGreaterThan(0);
  });

  it('show only what applies to a brand-new incident: no boilerplate', async () => {
    const incident = detailedIncident({
      status: 'pending_review',
      history: [],
      blocklists: [],
      insights: undefined,
      registrar: undefined,
      hostingProvider: undefined,
      incidentState: {
        unresponsive: false,
        warningBanner: false,
        responsive: false,
        contentRemoved: false,
        redirect: false,
        inconclusive: false,
        timestamp: null,
      } as never,
    });
    await showCard(linkedView({ incident, snapshots: [] }));
    const headings = within(screen.getByTestId('details'))
      .getAllByRole('heading')
      .map((h) => h.textContent);
    expect(headings).toEqual(['About this incident', 'Takedown credits']);
  });

  it('list the history newest first, five at a time, with "show all"', async () => {
    const history = Array.from({ length: 7 }, (_, i) => ({
      timestamp: `2026-11-0${i + 1}T10:00:00.000Z`,
      message: `step ${i + 1}`,
    }));
    await showCard(linkedView({ incident: detailedIncident({ history }) }));
    await expandSection('History');
    const entries = () => screen.getAllByTestId('history-entry').map((e) => e.textContent ?? '');
    expect(entries()).toHaveLength(5);
    expect(entries()[0]).toContain('step 7');
    fireEvent.click(screen.getByRole('button', { name: 'Show all (7 entries)' }));
    expect(entries()).toHaveLength(7);
    expect(entries()[6]).toContain('step 1');
    fireEvent.click(screen.getByRole('button', { name: 'Show fewer' }));
    await waitFor(() => expect(entries()).toHaveLength(5));
  });
});
