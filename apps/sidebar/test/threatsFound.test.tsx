// A ticket with no incident, in one card: the threat to report (the Threat field, or the best threat
// the connector found, the others one choice away), as defanged text with where each was seen;
// whether it is already an incident ("Follow incident …" or the ticket that follows it, before any
// new report, the way Zendesk's Jira integration links an existing issue); then the report, after
// its confirmation. No primary button until the agent chooses.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createFakeZafClient, type FakeReply } from './fakeZafClient';
import { ticketOnlyView, linkedView } from './fixtures';
import { renderSidebar } from './render';
import type { TSidebarTicketView } from '@incident-desk/sidebar-contract';

// as the connector answers them: best takedown candidate first
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
    {
      value: '+447700900123',
      kind: 'phone',
      display: '+447700900123',
      seenIn: [{ in: 'comment', commentId: 5, index: 0, public: true, author: 'end-user' }],
    },
  ],
};

const NO_DUPLICATES = {
  value: 'https://parcel-hold.example/pay',
  display: 'hxxps[:]//parcel-hold[.]example/pay',
  linked: [],
  service: { state: 'searched', incidents: [] },
};

/** The service's own id of an incident: a key, never shown to people. */
const LIST_ID = '65f0c0ffee1234567890abcd';

const FOLLOWED_BY_31 = {
  ...NO_DUPLICATES,
  linked: [{ incidentId: LIST_ID, reference: 'inc_777', ticketId: 31 }],
};

const AT_SERVICE = {
  ...NO_DUPLICATES,
  service: {
    state: 'searched',
    incidents: [
      {
        incidentId: LIST_ID,
        reference: 'inc_svc',
        display: 'hxxps[:]//parcel-hold[.]example/pay',
        linkedTicketId: null,
        followed: false,
      },
    ],
  },
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
        return { status: 200, body: { ...NO_DUPLICATES, value: url.searchParams.get('value') } };
      if (request.type === 'GET') return { status: 200, body: view };
      return { status: 202, body: { message: 'queued' } };
    },
  });
}

const posts = (client: { requests: { type: string; url: string; data?: unknown }[] }) =>
  client.requests
    .filter((r) => r.type === 'POST')
    .map((r) => ({ path: new URL(r.url).pathname, body: JSON.parse(String(r.data)) as unknown }));

const duplicateChecks = (client: { requests: { url: string }[] }) =>
  client.requests
    .filter((r) => r.url.includes('/duplicates'))
    .map((r) => new URL(r.url).searchParams.get('value'));

async function reportButtons() {
  const card = await screen.findByTestId('not-reported');
  await waitFor(() =>
    expect(within(card).getByRole('button', { name: 'Report for takedown' })).toBeTruthy(),
  );
  return {
    card,
    takedown: within(card).getByRole('button', { name: 'Report for takedown' }),
    monitor: within(card).getByRole('button', { name: 'Report for monitoring' }),
  };
}

describe('the not-reported card', () => {
  it('is one card: the best threat chosen, the others one choice away, two report buttons, none primary on first load', async () => {
    const client = connector(ticketOnlyView('none'));
    renderSidebar(client);
    const { card, takedown } = await reportButtons();
    const items = within(card).getAllByTestId('found-threat');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('URLhxxps[:]//parcel-hold[.]example/pay'),
      expect.stringContaining('Emailbilling[@]parcel-hold[.]example'),
      expect.stringContaining('Phone+447700900123'),
    ]);
    expect(items[0]!.textContent).toContain('Seen in: the subject; comment 1 (public, end user)');
    expect(items[1]!.textContent).toContain('comment 3 (internal, agent)');
    const radios = within(card).getAllByRole('radio') as HTMLInputElement[];
    expect(radios.map((radio) => radio.checked)).toEqual([true, false, false]);
    // two buttons for the whole card, not two per threat; no "fill in the Threat URL field"
    expect(within(card).getAllByRole('button')).toHaveLength(2);
    expect(card.textContent).not.toContain('Fill in the Threat URL field');
    expect(takedown.getAttribute('data-emphasis')).toBe('secondary');
    // never a live link
    expect(card.querySelector('a')).toBeNull();
    expect(duplicateChecks(client)).toEqual(['https://parcel-hold.example/pay']);

    fireEvent.click(radios[1]!);
    const chosen = await reportButtons();
    expect(chosen.takedown.getAttribute('data-emphasis')).toBe('primary');
    await waitFor(() =>
      expect(duplicateChecks(client)).toEqual([
        'https://parcel-hold.example/pay',
        'billing@parcel-hold.example',
      ]),
    );
  });

  it('lists the saved Threat field and the same URL found in the conversation once, a trailing slash apart', async () => {
    const client = connector(
      ticketOnlyView('unlinked', { threat: 'https://Parcel-Hold.example/pay/' }),
    );
    renderSidebar(client);
    const { card } = await reportButtons();
    const items = within(card).getAllByTestId('found-threat');
    expect(items).toHaveLength(3);
    expect(
      items.filter((item) => /parcel-hold\[\.\]example\/pay/i.test(item.textContent ?? '')),
    ).toHaveLength(1);
    // the saved value comes first, with where it was seen
    expect(items[0]!.textContent).toContain('Seen in: the subject');
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

  it('reports the chosen threat after the duplicate check and the confirmation', async () => {
    const client = connector(ticketOnlyView('none'));
    renderSidebar(client);
    const { card } = await reportButtons();
    fireEvent.click(within(card).getAllByRole('radio')[1]!);
    await waitFor(() => expect(duplicateChecks(client)).toHaveLength(2));
    fireEvent.click((await reportButtons()).takedown);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('billing[@]parcel-hold[.]example');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Report' }));
    await screen.findByText('Reported for takedown. The incident will appear here shortly.');
    expect(posts(client)).toEqual([
      {
        path: '/sidebar/tickets/42/threats/report',
        body: { value: 'billing@parcel-hold.example', mode: 'takedown' },
      },
    ]);
  });

  it.each([
    [
      {
        status: 502,
        body: { error: { code: 'zendesk_unavailable', message: 'Zendesk answered 500' } },
      },
      'The report failed. Zendesk did not accept the ticket update, so nothing was reported to the incident service.',
    ],
    [
      {
        status: 503,
        body: { error: { code: 'zendesk_limited', message: 'x', retryAfterSeconds: 20 } },
      },
      'The report failed. Zendesk is limiting ticket updates for this account. Try again in 20 seconds.',
    ],
  ])(
    'names Zendesk, not the incident service, when Zendesk fails the report (%o)',
    async (reply, text) => {
      const client = connector(ticketOnlyView('none'), {
        '/sidebar/tickets/42/threats/report': reply as FakeReply,
      });
      renderSidebar(client);
      fireEvent.click((await reportButtons()).takedown);
      fireEvent.click(
        within(await screen.findByRole('dialog')).getByRole('button', { name: 'Report' }),
      );
      const alert = await screen.findByTestId('threat-feedback');
      expect(alert.textContent).toContain(text);
      expect(alert.textContent).not.toContain('incident service is unavailable');
    },
  );

  it('cancelling the confirmation reports nothing', async () => {
    const client = connector(ticketOnlyView('none'));
    renderSidebar(client);
    fireEvent.click((await reportButtons()).monitor);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('reported for monitoring');
    expect(dialog.textContent).not.toContain('created in monitoring');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(client)).toEqual([]);
  });

  it('names the ticket that follows the known incident, by its reference only, and opens that ticket instead of a report', async () => {
    const client = connector(ticketOnlyView('none'), {
      '/sidebar/tickets/42/duplicates': { status: 200, body: FOLLOWED_BY_31 },
    });
    renderSidebar(client);
    const notice = await screen.findByTestId('duplicate-notice');
    expect(notice.textContent).toContain('Incident inc_777 is followed by ticket #31.');
    expect(notice.textContent).toContain('One ticket follows an incident');
    expect(screen.getByTestId('not-reported').textContent).not.toContain(LIST_ID);
    // the known incident comes first: no report button until the agent asks for one
    expect(screen.queryByRole('button', { name: 'Report for takedown' })).toBeNull();
    expect(within(notice).queryByRole('button', { name: /^Follow/ })).toBeNull();
    fireEvent.click(within(notice).getByRole('button', { name: 'Open ticket #31' }));
    expect(client.invocations).toContainEqual({ name: 'routeTo', args: ['ticket', 31] });
    expect(posts(client)).toEqual([]);

    fireEvent.click(
      within(notice).getByRole('button', { name: 'Report as a new incident anyway' }),
    );
    expect((await reportButtons()).takedown).toBeTruthy();
  });

  it('offers "Follow incident …" for an incident the service has and no ticket follows', async () => {
    const client = connector(ticketOnlyView('none'), {
      '/sidebar/tickets/42/duplicates': { status: 200, body: AT_SERVICE },
    });
    renderSidebar(client);
    const notice = await screen.findByTestId('duplicate-notice');
    expect(notice.textContent).toContain(
      'Incident inc_svc is at the incident service; no ticket follows it yet.',
    );
    expect(notice.textContent).not.toContain(LIST_ID);
    expect(screen.queryByRole('button', { name: 'Report for takedown' })).toBeNull();
    fireEvent.click(within(notice).getByRole('button', { name: 'Follow incident inc_svc' }));
    await screen.findByText('This ticket now follows the incident.');
    expect(posts(client)).toEqual([
      {
        path: '/sidebar/tickets/42/link-existing',
        body: { value: 'https://parcel-hold.example/pay' },
      },
    ]);
  });

  it('says "Follow this incident" when no reference is known, never the service’s own id', async () => {
    const client = connector(ticketOnlyView('none'), {
      '/sidebar/tickets/42/duplicates': {
        status: 200,
        body: {
          ...AT_SERVICE,
          service: {
            state: 'searched',
            incidents: [{ ...AT_SERVICE.service.incidents[0], reference: null }],
          },
        },
      },
    });
    renderSidebar(client);
    const notice = await screen.findByTestId('duplicate-notice');
    expect(within(notice).getByRole('button', { name: 'Follow this incident' })).toBeTruthy();
    expect(notice.textContent).not.toContain(LIST_ID);
  });

  it('never names a ticket the agent may not open', async () => {
    const client = connector(ticketOnlyView('none'), {
      '/sidebar/tickets/42/duplicates': {
        status: 200,
        body: {
          ...NO_DUPLICATES,
          linked: [{ incidentId: LIST_ID, reference: null, ticketId: null }],
        },
      },
    });
    renderSidebar(client);
    const notice = await screen.findByTestId('duplicate-notice');
    expect(notice.textContent).toContain(
      'An incident for it is followed by a ticket you cannot open.',
    );
    expect(notice.textContent).toContain('ask an agent who can open that one');
    expect(within(notice).queryByRole('button', { name: /Open ticket/ })).toBeNull();
    expect(within(notice).queryByRole('button', { name: /^Follow/ })).toBeNull();
  });

  it('puts the saved Threat field of an unlinked ticket first and checks it at once', async () => {
    const client = connector(ticketOnlyView('unlinked'));
    renderSidebar(client);
    const { card } = await reportButtons();
    const items = within(card).getAllByTestId('found-threat');
    expect(items[0]!.textContent).toContain('Threat fieldhxxp[:]//evil[.]example/login');
    expect(card.textContent).toContain('The saved value of the Threat field is reported');
    expect(duplicateChecks(client)).toEqual(['http://evil.example/login']);
    fireEvent.click((await reportButtons()).monitor);
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Report' }),
    );
    await screen.findByText(
      'Reported with a request for monitoring. The incident will appear here shortly.',
    );
    expect(posts(client)).toEqual([
      {
        path: '/sidebar/tickets/42/threats/report',
        body: { value: 'http://evil.example/login', mode: 'monitor' },
      },
    ]);
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
    expect(await screen.findAllByTestId('found-threat')).toHaveLength(3);
  });

  it('says only how to start when the conversation names no threat', async () => {
    const client = connector(ticketOnlyView('none'), {
      '/sidebar/tickets/42/threats': { status: 200, body: { threats: [] } },
    });
    renderSidebar(client);
    const none = await screen.findByTestId('no-threat');
    expect(none.textContent).toContain('No threat was found in this ticket.');
    expect(within(none).queryAllByRole('button')).toHaveLength(0);
    expect(screen.queryByTestId('not-reported')).toBeNull();
  });

  it('is absent on a linked ticket', async () => {
    const client = connector(linkedView());
    renderSidebar(client);
    await screen.findByTestId('state-linked');
    expect(screen.queryByTestId('not-reported')).toBeNull();
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
        if (path.endsWith('/duplicates')) return { status: 200, body: FOLLOWED_BY_31 };
        return { status: 200, body: ticketOnlyView('none') };
      },
    });
    renderSidebar(client);
    const card = await screen.findByTestId('not-reported');
    expect(card.textContent).toContain('Menaces trouvées dans ce ticket');
    const notice = await screen.findByTestId('duplicate-notice');
    expect(notice.textContent).toContain('L’incident inc_777 est suivi par le ticket n° 31.');
  });
});
