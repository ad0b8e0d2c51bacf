// Issue 18 in the sidebar: the threats the connector finds in the ticket, listed as defanged text
// with where each was seen; one click reports one (after the duplicate check and the confirmation);
// an existing incident is offered first ("link this ticket instead" or "report anyway").
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createFakeZafClient, type FakeReply } from './fakeZafClient';
import { ticketOnlyView, linkedView } from './fixtures';
import { renderSidebar } from './render';
import type { TSidebarTicketView } from '@incident-desk/sidebar-contract';

const THREATS = {
  threats: [
    {
      value: 'https://parcel-hold.example/pay',
      kind: 'url',
      display: 'hxxps[:]//parcel-hold[.]example/pay',
      seenIn: [
        { in: 'subject' },
        { in: 'comment', commentId: 5, index: 0, public: true, author: 'end-user' },
      ],
    },
    {
      value: 'billing@parcel-hold.example',
      kind: 'email',
      display: 'billing[@]parcel-hold[.]example',
      seenIn: [{ in: 'comment', commentId: 6, index: 2, public: false, author: 'agent' }],
    },
  ],
};

const NO_DUPLICATES = {
  value: 'https://parcel-hold.example/pay',
  display: 'hxxps[:]//parcel-hold[.]example/pay',
  linked: [],
  service: { state: 'searched', incidents: [] },
};

const LINKED_ELSEWHERE = {
  ...NO_DUPLICATES,
  linked: [{ incidentId: 'inc_777', ticketId: 31 }],
};

/** A connector with the view, the threats, the duplicates and the actions, by path. */
function connector(
  view: TSidebarTicketView,
  routes: Record<string, FakeReply | ((url: URL) => FakeReply)> = {},
) {
  return createFakeZafClient({
    handler: (request) => {
      const url = new URL(request.url);
      const route = routes[url.pathname];
      if (route) return typeof route === 'function' ? route(url) : route;
      if (url.pathname === '/sidebar/tickets/42/threats') return { status: 200, body: THREATS };
      if (url.pathname === '/sidebar/tickets/42/duplicates')
        return { status: 200, body: NO_DUPLICATES };
      if (request.type === 'GET') return { status: 200, body: view };
      return { status: 202, body: { message: 'queued' } };
    },
  });
}

const posts = (client: { requests: { type: string; url: string; data?: unknown }[] }) =>
  client.requests
    .filter((r) => r.type === 'POST')
    .map((r) => ({ path: new URL(r.url).pathname, body: JSON.parse(String(r.data)) as unknown }));

describe('threats found in the ticket', () => {
  it('lists each threat defanged, as text, with where it was seen', async () => {
    renderSidebar(connector(ticketOnlyView('none')));
    const items = await screen.findAllByTestId('found-threat');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('hxxps[:]//parcel-hold[.]example/pay');
    expect(items[0]!.textContent).toContain('the subject; comment 1 (public, end user)');
    expect(items[1]!.textContent).toContain('billing[@]parcel-hold[.]example');
    expect(items[1]!.textContent).toContain('comment 3 (internal, agent)');
    // never a live link
    expect(screen.getByTestId('threats-found').querySelector('a')).toBeNull();
    // the buttons of each threat name it for assistive technology
    const report = within(items[1]!).getByRole('button', { name: 'Report for takedown' });
    expect(report.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(report.getAttribute('aria-describedby')!)?.textContent).toBe(
      'billing[@]parcel-hold[.]example',
    );
  });

  it('keeps a hostile value inert: markup is text, the display is defanged again', async () => {
    const hostile = {
      threats: [
        {
          value: 'https://evil.example/<img src=x onerror=alert(1)>',
          kind: 'url',
          display: 'https://evil.example/<img src=x onerror=alert(1)>',
          seenIn: [{ in: 'subject' }],
        },
      ],
    };
    renderSidebar(
      connector(ticketOnlyView('none'), {
        '/sidebar/tickets/42/threats': { status: 200, body: hostile },
      }),
    );
    const [item] = await screen.findAllByTestId('found-threat');
    expect(item!.querySelector('img')).toBeNull();
    expect(item!.textContent).toContain('hxxps[:]//evil[.]example/<img src=x onerror=alert(1)>');
  });

  it('reports a threat after the duplicate check and the confirmation', async () => {
    const client = connector(ticketOnlyView('none'));
    renderSidebar(client);
    const [first] = await screen.findAllByTestId('found-threat');
    fireEvent.click(within(first!).getByRole('button', { name: 'Report for takedown' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('hxxps[:]//parcel-hold[.]example/pay');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Report' }));
    await screen.findByText('Reported for takedown. The incident will appear here shortly.');
    const duplicateCheck = client.requests.find((r) => r.url.includes('/duplicates'))!;
    expect(new URL(duplicateCheck.url).searchParams.get('value')).toBe(
      'https://parcel-hold.example/pay',
    );
    expect(posts(client)).toEqual([
      {
        path: '/sidebar/tickets/42/threats/report',
        body: { value: 'https://parcel-hold.example/pay', mode: 'takedown' },
      },
    ]);
  });

  it('cancelling the confirmation reports nothing', async () => {
    const client = connector(ticketOnlyView('none'));
    renderSidebar(client);
    const [first] = await screen.findAllByTestId('found-threat');
    fireEvent.click(within(first!).getByRole('button', { name: 'Report for monitoring' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(client)).toEqual([]);
  });

  it('shows the ticket that follows the existing incident, and offers no second link to it', async () => {
    const client = connector(ticketOnlyView('none'), {
      '/sidebar/tickets/42/duplicates': { status: 200, body: LINKED_ELSEWHERE },
    });
    renderSidebar(client);
    const [first] = await screen.findAllByTestId('found-threat');
    fireEvent.click(within(first!).getByRole('button', { name: 'Report for takedown' }));
    const notice = await screen.findByTestId('duplicate-notice');
    expect(notice.textContent).toContain('Already incident inc_777, linked to ticket #31.');
    expect(notice.textContent).toContain('One ticket follows an incident');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(within(notice).queryByRole('button', { name: 'Link this ticket instead' })).toBeNull();
    fireEvent.click(within(notice).getByRole('button', { name: 'Open ticket #31' }));
    expect(client.invocations).toContainEqual({ name: 'routeTo', args: ['ticket', 31] });
    expect(posts(client)).toEqual([]);
  });

  it('offers an incident the service has and no ticket follows: link this ticket instead', async () => {
    const client = connector(ticketOnlyView('none'), {
      '/sidebar/tickets/42/duplicates': {
        status: 200,
        body: {
          ...NO_DUPLICATES,
          service: {
            state: 'searched',
            incidents: [{ incidentId: 'inc_svc', display: 'x', linkedTicketId: null }],
          },
        },
      },
      '/sidebar/tickets/42/link-existing': { status: 200, body: { message: 'linked' } },
    });
    renderSidebar(client);
    const [first] = await screen.findAllByTestId('found-threat');
    fireEvent.click(within(first!).getByRole('button', { name: 'Report for takedown' }));
    const notice = await screen.findByTestId('duplicate-notice');
    expect(notice.textContent).toContain('Found at the incident service: incident inc_svc.');
    fireEvent.click(within(notice).getByRole('button', { name: 'Link this ticket instead' }));
    await screen.findByText('This ticket is now linked to the existing incident.');
    expect(posts(client)).toEqual([
      {
        path: '/sidebar/tickets/42/link-existing',
        body: { value: 'https://parcel-hold.example/pay' },
      },
    ]);
  });

  it('or report anyway, through the same confirmation', async () => {
    const client = connector(ticketOnlyView('none'), {
      '/sidebar/tickets/42/duplicates': {
        status: 200,
        body: {
          ...NO_DUPLICATES,
          service: {
            state: 'searched',
            incidents: [{ incidentId: 'inc_svc', display: 'x', linkedTicketId: null }],
          },
        },
      },
    });
    renderSidebar(client);
    const [first] = await screen.findAllByTestId('found-threat');
    fireEvent.click(within(first!).getByRole('button', { name: 'Report for monitoring' }));
    const notice = await screen.findByTestId('duplicate-notice');
    expect(notice.textContent).toContain('Found at the incident service: incident inc_svc.');
    fireEvent.click(within(notice).getByRole('button', { name: 'Report anyway' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Report' }));
    await screen.findByText('Reported for monitoring. The incident will appear here shortly.');
    expect(posts(client).map((p) => p.path)).toEqual(['/sidebar/tickets/42/threats/report']);
  });

  it('checks the saved Threat field of an unlinked ticket for duplicates at once', async () => {
    const client = connector(ticketOnlyView('unlinked'), {
      '/sidebar/tickets/42/duplicates': (url) => ({
        status: 200,
        body: { ...LINKED_ELSEWHERE, value: url.searchParams.get('value') },
      }),
    });
    renderSidebar(client);
    const notice = await screen.findByTestId('duplicate-notice');
    expect(notice.textContent).toContain('inc_777');
    const check = client.requests.find((r) => r.url.includes('/duplicates'))!;
    expect(new URL(check.url).searchParams.get('value')).toBe('http://evil.example/login');
  });

  it('says why the list is missing, and retries', async () => {
    let fail = true;
    const client = connector(ticketOnlyView('none'), {
      '/sidebar/tickets/42/threats': () =>
        fail
          ? { status: 503, body: { error: { code: 'retry_later' } } }
          : { status: 200, body: THREATS },
    });
    renderSidebar(client);
    const alert = await screen.findByTestId('threats-load-failed');
    expect(alert.textContent).toContain('could not be read');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findAllByTestId('found-threat')).toHaveLength(2);
  });

  it('adds no section when the conversation names no threat', async () => {
    const client = connector(ticketOnlyView('none'), {
      '/sidebar/tickets/42/threats': { status: 200, body: { threats: [] } },
    });
    renderSidebar(client);
    await screen.findByTestId('no-threat');
    await waitFor(() => expect(client.requests.some((r) => r.url.endsWith('/threats'))).toBe(true));
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByTestId('threats-found')).toBeNull();
  });

  it('is absent on a linked ticket', async () => {
    const client = connector(linkedView());
    renderSidebar(client);
    await screen.findByTestId('state-linked');
    expect(screen.queryByTestId('threats-found')).toBeNull();
    expect(client.requests.some((r) => r.url.includes('/threats'))).toBe(false);
  });

  it('reads French', async () => {
    const client = createFakeZafClient({
      currentUser: {
        id: 7,
        email: 'a@b.example',
        name: 'A',
        locale: 'fr',
        timeZone: { ianaName: 'UTC' },
      },
      handler: (request) => {
        const path = new URL(request.url).pathname;
        if (path.endsWith('/threats')) return { status: 200, body: THREATS };
        return { status: 200, body: ticketOnlyView('none') };
      },
    });
    renderSidebar(client);
    expect((await screen.findByTestId('threats-found')).textContent).toContain(
      'Menaces trouvées dans ce ticket',
    );
  });
});
