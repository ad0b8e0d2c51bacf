// What an agent may do decides what is offered: a light agent reads the card without actions; an
// agent Zendesk does not show the ticket is told so; late ticket updates offer "Retry now" unless
// Zendesk has paused the account's updates.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createFakeZafClient } from './fakeZafClient';
import { clientServing, renderSidebar } from './render';
import { linkedView, ticketOnlyView } from './fixtures';
import type { TSidebarTicketView } from '@incident-desk/sidebar-contract';

const readOnly = { canAct: false, reason: 'read_only_role' as const };
const french = { currentUser: { id: 7, email: 'a@x.example', locale: 'fr', timeZone: 'UTC' } };

describe('a light agent', () => {
  it('is offered no action on the card, and reads one quiet line instead', async () => {
    renderSidebar(clientServing(linkedView({ viewer: readOnly })));
    const card = await screen.findByTestId('status-card');
    expect(within(card).getByTestId('read-only').textContent).toBe(
      'You can view this incident; your Zendesk role cannot act on it.',
    );
    expect(within(card).queryByTestId('actions')).toBeNull();
    const offered = within(card)
      .queryAllByRole('button')
      .map((button) => button.textContent ?? '');
    for (const name of ['Approve', 'More actions', 'Request', 'Mark'])
      expect(offered.filter((text) => text.includes(name))).toEqual([]);
  });

  it('reads the line in French', async () => {
    renderSidebar(clientServing(linkedView({ viewer: readOnly }), {}, french));
    const line = await screen.findByTestId('read-only');
    expect(line.textContent).toBe(
      "Vous pouvez consulter cet incident\u202f; votre rôle Zendesk ne permet pas d'agir dessus.",
    );
  });

  it('is offered no report of an unreported ticket, nor a retry of a failed update', async () => {
    const view: TSidebarTicketView = {
      ...ticketOnlyView('unlinked'),
      viewer: readOnly,
      sync: {
        ...linkedView().sync,
        failedForwards: [
          {
            id: 'comment-1',
            kind: 'comment',
            failedAt: '2026-11-03T09:00:00.000Z',
            attempts: 1,
            lastError: 'HTTP 500',
          },
        ],
      },
    };
    renderSidebar(clientServing(view));
    const panel = await screen.findByTestId('not-reported');
    await waitFor(() => expect(within(panel).getByTestId('read-only')).toBeTruthy());
    expect(within(panel).queryByRole('button', { name: /Report for/ })).toBeNull();
    expect(within(screen.getByTestId('sync')).queryByRole('button', { name: /Retry/ })).toBeNull();
  });

  it('is still offered every action when the connector says they may act', async () => {
    renderSidebar(clientServing(linkedView()));
    const card = await screen.findByTestId('status-card');
    expect(within(card).queryByTestId('read-only')).toBeNull();
    expect(within(card).getByTestId('actions')).toBeTruthy();
  });
});

describe('an agent Zendesk does not show the ticket', () => {
  it.each([
    ['en-US', "You don't have access to this ticket in Zendesk."],
    ['fr', "Vous n'avez pas accès à ce ticket dans Zendesk."],
  ])('%s: is told so, not that nothing was found', async (locale, text) => {
    renderSidebar(
      createFakeZafClient({
        currentUser: { id: 7, email: 'a@x.example', locale, timeZone: 'UTC' },
        handler: () => ({
          status: 404,
          body: { error: { code: 'ticket_not_found', message: 'ticket not found' } },
        }),
      }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(text);
    expect(alert.textContent).not.toMatch(/not found|introuvable/);
  });
});

describe('"Retry now" on late ticket updates', () => {
  const late = (overrides: Partial<TSidebarTicketView['sync']> = {}) =>
    linkedView({
      sync: {
        ...linkedView().sync,
        waitingTicketUpdates: 2,
        waitingSince: new Date(Date.now() - 5 * 60_000).toISOString(),
        ...overrides,
      },
    });

  it('calls the endpoint, then shows the state reached', async () => {
    let written = false;
    const client = clientServing(() => (written ? linkedView() : late()), {
      '/ticket-updates/retry': { status: 200, body: { message: 'ticket updates due now' } },
    });
    renderSidebar(client);
    const alert = await screen.findByTestId('sync');
    expect(alert.textContent).toContain('Ticket updates are late');
    // the writer has written them by the time the view is read again
    written = true;
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry now' }));
    await waitFor(() => expect(screen.queryByTestId('sync')).toBeNull());
    const posts = client.requests.filter((r) => r.type === 'POST');
    expect(posts.map((r) => new URL(r.url).pathname)).toEqual([
      '/sidebar/tickets/42/ticket-updates/retry',
    ]);
    expect(screen.getByTestId('action-feedback').textContent).toContain('Updates due now.');
  });

  it('keeps the late line when the updates still wait after the retry', async () => {
    const client = clientServing(() => late(), {
      '/ticket-updates/retry': { status: 200, body: { message: 'ticket updates due now' } },
    });
    renderSidebar(client);
    fireEvent.click(
      within(await screen.findByTestId('sync')).getByRole('button', { name: 'Retry now' }),
    );
    await waitFor(() => expect(client.requests.filter((r) => r.type === 'GET').length).toBe(2));
    expect(within(screen.getByTestId('sync')).getByTestId('sync-late')).toBeTruthy();
  });

  it('says when the next attempt is while Zendesk has paused the updates, offering no retry', async () => {
    renderSidebar(clientServing(late({ writesPausedUntil: '2026-11-03T10:15:00.000Z' })));
    const alert = await screen.findByTestId('sync');
    expect(within(alert).getByTestId('sync-paused').textContent).toContain(
      'Zendesk asked to wait. Next attempt:',
    );
    expect(within(alert).queryByRole('button', { name: 'Retry now' })).toBeNull();
  });

  it('tells the refusal of a paused account and when to try again', async () => {
    renderSidebar(
      clientServing(late(), {
        '/ticket-updates/retry': {
          status: 503,
          body: { error: { code: 'zendesk_limited', message: 'wait', retryAfterSeconds: 120 } },
        },
      }),
    );
    fireEvent.click(
      within(await screen.findByTestId('sync')).getByRole('button', { name: 'Retry now' }),
    );
    const feedback = await screen.findByTestId('action-feedback');
    expect(feedback.textContent).toContain(
      'Zendesk is limiting ticket updates for this account. Try again in 120 seconds.',
    );
  });

  it('is not offered to a light agent', async () => {
    renderSidebar(clientServing({ ...late(), viewer: readOnly }));
    const alert = await screen.findByTestId('sync');
    expect(within(alert).queryByRole('button', { name: 'Retry now' })).toBeNull();
  });
});
