// "Retry linking" never shows success for a retry that cannot succeed.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { createFakeZafClient } from './fakeZafClient';
import { clientServing, renderSidebar } from './render';
import { ticketOnlyView } from './fixtures';
import { parseTicketView } from '../src/app/api/answers';

describe('retry linking', () => {
  it('is not offered on a duplicate: the incident the service has is, "Follow incident …", never the admin page', async () => {
    const client = createFakeZafClient({
      handler: (request) => {
        const url = new URL(request.url);
        if (url.pathname.endsWith('/duplicates'))
          return {
            status: 200,
            body: {
              value: url.searchParams.get('value'),
              display: 'hxxp[:]//evil[.]example/login',
              linked: [],
              service: {
                state: 'searched',
                incidents: [
                  {
                    incidentId: '65f0c0ffee1234567890abcd',
                    reference: 'inc_9f2',
                    display: 'hxxp[:]//evil[.]example/login',
                    linkedTicketId: null,
                    followed: false,
                  },
                ],
              },
            },
          };
        if (request.type === 'GET')
          return {
            status: 200,
            body: ticketOnlyView('failed', {
              unlinkedReason: 'duplicate: answered 409',
              unlinkedCause: 'duplicate',
            }),
          };
        return { status: 200, body: { message: 'linked' } };
      },
    });
    renderSidebar(client);
    const panel = await screen.findByTestId('link-failed');
    expect(within(panel).queryByRole('button', { name: 'Retry linking' })).toBeNull();
    expect(within(panel).getByTestId('unlinked-cause').textContent).toBe(
      'The incident service already has an incident for this threat.',
    );
    const notice = await within(panel).findByTestId('duplicate-notice');
    // the connector's raw answer and the service's own id are no news to the agent
    expect(panel.textContent).not.toContain('answered 409');
    expect(panel.textContent).not.toContain('65f0c0ffee1234567890abcd');
    expect(panel.textContent).not.toContain('admin page');
    expect(within(notice).queryByRole('button', { name: /anyway/ })).toBeNull();
    fireEvent.click(within(notice).getByRole('button', { name: 'Follow incident inc_9f2' }));
    await within(panel).findByText('This ticket now follows the incident.');
    const post = client.requests.find((r) => r.type === 'POST')!;
    expect(new URL(post.url).pathname).toBe('/sidebar/tickets/42/link-existing');
    expect(JSON.parse(post.data!)).toEqual({ value: 'http://evil.example/login' });
  });

  it('on a duplicate the search cannot find, says an administrator can link it', async () => {
    const client = clientServing(
      ticketOnlyView('failed', {
        unlinkedReason: 'duplicate: answered 409',
        unlinkedCause: 'duplicate',
      }),
    );
    renderSidebar(client);
    const panel = await screen.findByTestId('link-failed');
    expect((await within(panel).findByTestId('duplicate-explained')).textContent).toContain(
      'an administrator can link this ticket',
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
