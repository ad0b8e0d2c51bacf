import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderSidebar, clientServing } from './render';
import { detailedIncident, linkedView } from './fixtures';

const gets = (client: { requests: { type: string }[] }) =>
  client.requests.filter((r) => r.type === 'GET').length;

/**
 * Lets the sidebar's clock run for `ms` at once: every debounce and refresh timer due within it
 * fires, so a test sees that nothing happened in that time without waiting it out.
 */
const timePasses = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('refresh behaviour', () => {
  // The sidebar's timers on a fake clock that also follows real time (waitFor and the fake
  // client's answers work as usual); React's own scheduling stays real.
  beforeEach(() => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
      shouldAdvanceTime: true,
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refreshes when the ticket tags or the linked fields change, and unsubscribes on unmount', async () => {
    const client = clientServing(linkedView());
    const { unmount } = renderSidebar(client);
    await screen.findByTestId('state-linked');
    expect(gets(client)).toBe(1);
    // the subscriptions follow the first view (its field ids): wait for them before changing anything
    await waitFor(() => {
      expect(client.listenerCount('ticket.tags.changed')).toBe(1);
      expect(client.listenerCount('ticket.custom_field_1002.changed')).toBe(1);
    });
    act(() => client.trigger('ticket.tags.changed'));
    await waitFor(() => expect(gets(client)).toBe(2));
    act(() => client.trigger('ticket.custom_field_1002.changed'));
    await waitFor(() => expect(gets(client)).toBe(3));
    // a burst of changes from one save refreshes once
    act(() => {
      client.trigger('ticket.custom_field_1001.changed');
      client.trigger('ticket.custom_field_1003.changed');
      client.trigger('ticket.tags.changed');
    });
    await waitFor(() => expect(gets(client)).toBe(4));
    await timePasses(400);
    expect(gets(client)).toBe(4);
    unmount();
    expect(client.listenerCount('ticket.tags.changed')).toBe(0);
    expect(client.listenerCount('ticket.custom_field_1002.changed')).toBe(0);
  });

  it('refreshes when someone else updates the ticket (ticket.updated), never waiting on ticket.saved', async () => {
    const client = clientServing(linkedView());
    renderSidebar(client);
    await screen.findByTestId('state-linked');
    await waitFor(() => expect(client.listenerCount('ticket.updated')).toBe(1));
    // Zendesk sends ticket.saved to the background location only
    expect(client.listenerCount('ticket.saved')).toBe(0);
    act(() => client.trigger('ticket.updated', { id: 7, name: 'Connector' }));
    await waitFor(() => expect(gets(client)).toBe(2));
  });

  it('refreshes periodically while visible, keeping the content on screen (no flicker)', async () => {
    let status = 'approval_required';
    const client = clientServing(() => linkedView({ incident: detailedIncident({ status }) }));
    renderSidebar(client, 150);
    await screen.findByTestId('state-linked');
    status = 'takedown_ready';
    const seen: string[] = [];
    const observer = new MutationObserver(() => {
      if (screen.queryByTestId('loading-skeleton')) seen.push('skeleton');
      if (!screen.queryByTestId('overview')) seen.push('blank');
    });
    observer.observe(document.body, { childList: true, subtree: true });
    await waitFor(() =>
      expect(screen.getByTestId('status').textContent).toContain('Takedown ready'),
    );
    observer.disconnect();
    expect(seen).toEqual([]);
  });

  it('does not refresh periodically while the page is hidden', async () => {
    const client = clientServing(linkedView());
    const visibility = Object.getOwnPropertyDescriptor(Document.prototype, 'visibilityState');
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    try {
      renderSidebar(client, 50);
      await screen.findByTestId('state-linked');
      const before = gets(client);
      await timePasses(300);
      expect(gets(client)).toBe(before);
    } finally {
      if (visibility) Object.defineProperty(document, 'visibilityState', visibility);
      delete (document as { visibilityState?: string }).visibilityState;
    }
  });

  it('pauses periodic refresh while the app is deactivated in Zendesk and refreshes on activation', async () => {
    const client = clientServing(linkedView());
    renderSidebar(client, 50);
    await screen.findByTestId('state-linked');
    act(() => client.trigger('app.deactivated'));
    await timePasses(100);
    const paused = gets(client);
    await timePasses(300);
    expect(gets(client)).toBe(paused);
    act(() => client.trigger('app.activated'));
    await waitFor(() => expect(gets(client)).toBeGreaterThan(paused + 1));
  });

  it('does not refresh on the first activation, whose view is the one just loaded', async () => {
    const client = clientServing(linkedView());
    renderSidebar(client);
    await screen.findByTestId('state-linked');
    act(() => client.trigger('app.activated', { firstLoad: true }));
    await timePasses(400);
    expect(gets(client)).toBe(1);
    act(() => client.trigger('app.activated', { firstLoad: false }));
    await waitFor(() => expect(gets(client)).toBe(2));
  });

  it('ignores an older answer that arrives after a newer one', async () => {
    const resolvers: ((v: unknown) => void)[] = [];
    const client = clientServing(linkedView());
    let n = 0;
    client.setHandler(() => {
      n += 1;
      if (n === 1) return { status: 200, body: linkedView() };
      return new Promise((resolve) => resolvers.push(resolve as (v: unknown) => void)) as never;
    });
    renderSidebar(client);
    await screen.findByTestId('state-linked');
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    act(() => client.trigger('ticket.tags.changed'));
    await waitFor(() => expect(resolvers).toHaveLength(2));
    await act(async () => {
      resolvers[1]!({
        status: 200,
        body: linkedView({ incident: detailedIncident({ status: 'takedown_success' }) }),
      });
    });
    await act(async () => {
      resolvers[0]!({
        status: 200,
        body: linkedView({ incident: detailedIncident({ status: 'case_building' }) }),
      });
    });
    expect(screen.getByTestId('status').textContent).toContain('Taken down');
  });
});

describe('ZAF integration', () => {
  it('needs one ZAF get round trip before the first connector request', async () => {
    const client = clientServing(linkedView());
    renderSidebar(client);
    await screen.findByTestId('state-linked');
    expect(client.getCalls).toHaveLength(1);
  });

  it('marks when the first view is on screen, for the load-time budget', async () => {
    performance.clearMarks();
    renderSidebar(clientServing(linkedView()));
    await screen.findByTestId('state-linked');
    await waitFor(() =>
      expect(performance.getEntriesByName('incident-desk:view-ready')).toHaveLength(1),
    );
  });

  it('resizes the iframe through ZAF to its content', async () => {
    const client = clientServing(linkedView());
    renderSidebar(client);
    await screen.findByTestId('state-linked');
    const resize = client.invocations.filter((i) => i.name === 'resize');
    expect(resize.length).toBeGreaterThan(0);
    expect(resize[0]!.args[0]).toMatchObject({
      width: '100%',
      height: expect.stringMatching(/^\d+px$/),
    });
  });

  it('exposes one labelled main region and headed sections for screen readers', async () => {
    renderSidebar(clientServing(linkedView()));
    await screen.findByTestId('state-linked');
    expect(screen.getByRole('main', { name: 'incident-desk' })).toBeTruthy();
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    // the collapsed detail sections, each a level-2 heading that opens its panel
    expect(headings).toEqual([
      'History',
      'Live state',
      'Registrar and hosting',
      'Blocklists',
      'Insights and snapshots',
      'About this incident',
      'Takedown credits',
    ]);
    expect(screen.getByRole('region', { name: 'Incident status' })).toBeTruthy();
    for (const region of screen.getAllByRole('region'))
      expect(
        region.getAttribute('aria-labelledby') ?? region.getAttribute('aria-label'),
      ).toBeTruthy();
  });
});
