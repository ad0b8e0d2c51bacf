// Issue 18: "Retry linking" never shows success for a retry that cannot succeed.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { clientServing, renderSidebar } from './render';
import { ticketOnlyView } from './fixtures';
import { parseTicketView } from '../src/app/api/answers';

describe('retry linking', () => {
  it('is not offered on a duplicate, which says why and what to do instead', async () => {
    const client = clientServing(
      ticketOnlyView('failed', {
        unlinkedReason: 'duplicate: answered 409',
        unlinkedCause: 'duplicate',
      }),
    );
    renderSidebar(client);
    const panel = await screen.findByTestId('link-failed');
    expect(within(panel).queryByRole('button', { name: 'Retry linking' })).toBeNull();
    expect(within(panel).getByTestId('duplicate-explained').textContent).toContain(
      'already has an incident for this threat',
    );
    expect(within(panel).getByTestId('unlinked-cause').textContent).toBe(
      'The incident service already has an incident for this threat.',
    );
    expect(within(panel).getByTestId('unlinked-reason').textContent).toBe(
      'duplicate: answered 409',
    );
    expect(client.requests.filter((r) => r.type === 'POST')).toHaveLength(0);
  });

  it('tells a queued retry as news, not as a success', async () => {
    const client = clientServing(ticketOnlyView('failed', { unlinkedCause: 'failed' }), {
      '/retry-link': { status: 202, body: { message: 'report queued again' } },
    });
    renderSidebar(client);
    const panel = await screen.findByTestId('link-failed');
    fireEvent.click(within(panel).getByRole('button', { name: 'Retry linking' }));
    const feedback = await within(panel).findByTestId('action-feedback');
    expect(feedback.getAttribute('data-outcome')).toBe('queued');
    expect(feedback.textContent).toContain('The report was queued again');
    expect(feedback.textContent).not.toContain('Linking retried');
  });

  it('explains a 409 as a retry that cannot link, never as success', async () => {
    const client = clientServing(ticketOnlyView('failed'), {
      '/retry-link': { status: 409, body: { error: { code: 'duplicate_incident' } } },
    });
    renderSidebar(client);
    const panel = await screen.findByTestId('link-failed');
    fireEvent.click(within(panel).getByRole('button', { name: 'Retry linking' }));
    const alert = await within(panel).findByRole('alert');
    expect(alert.textContent).toContain('Retrying cannot link this ticket');
    expect(within(panel).queryByTestId('action-feedback')?.getAttribute('data-outcome')).not.toBe(
      'success',
    );
  });

  it('keeps only the causes it knows from the connector', () => {
    const view = (unlinkedCause: unknown) =>
      parseTicketView({ ticket: { id: 1, linkState: 'failed', unlinkedCause } })?.ticket
        .unlinkedCause;
    expect(view('duplicate')).toBe('duplicate');
    expect(view('failed')).toBe('failed');
    expect(view('<b>x</b>')).toBeUndefined();
  });
});

describe('link failure, in French', () => {
  it('names the cause in the agent’s language', async () => {
    renderSidebar(
      clientServing(
        ticketOnlyView('failed', { unlinkedReason: 'duplicate', unlinkedCause: 'duplicate' }),
        {},
        { currentUser: { id: 7, email: 'a@x.example', locale: 'fr', timeZone: 'Europe/Paris' } },
      ),
    );
    const panel = await screen.findByTestId('link-failed');
    expect(within(panel).getByTestId('unlinked-cause').textContent).toBe(
      'Le service d’incidents a déjà un incident pour cette menace.',
    );
  });
});
