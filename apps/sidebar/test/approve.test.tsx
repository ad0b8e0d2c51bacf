import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { chooseMoreAction, renderSidebar, clientServing } from './render';
import { detailedIncident, linkedView } from './fixtures';
import type { FakeReply } from './fakeZafClient';
import type { TSidebarTicketView } from '@incident-desk/sidebar-contract';

async function openApprove(
  reply: FakeReply,
  view: TSidebarTicketView | (() => TSidebarTicketView) = linkedView(),
) {
  const client = clientServing(view, { '/approve-takedown': reply });
  renderSidebar(client);
  const actions = await screen.findByTestId('actions');
  fireEvent.click(within(actions).getByRole('button', { name: /^Approve takedown/ }));
  const dialog = await screen.findByRole('dialog');
  return { client, actions, dialog };
}

const posts = (client: { requests: { type: string; url: string; data?: string }[] }) =>
  client.requests.filter((r) => r.type === 'POST');

describe('approve takedown', () => {
  it('is shown only while the status is approval_required', async () => {
    renderSidebar(
      clientServing(linkedView({ incident: detailedIncident({ status: 'takedown_ready' }) })),
    );
    const actions = await screen.findByTestId('actions');
    expect(within(actions).queryByRole('button', { name: /^Approve takedown/ })).toBeNull();
    expect(within(actions).queryByRole('button', { name: 'Request takedown' })).toBeNull();
  });

  it('asks for confirmation and does nothing when cancelled', async () => {
    const { client, dialog } = await openApprove({ status: 200, body: {} });
    expect(dialog.textContent).toContain('Approve the takedown?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(client)).toHaveLength(0);
  });

  it('approves as the current agent, then shows the updated incident', async () => {
    let approved = false;
    const view = () =>
      approved
        ? linkedView({ incident: detailedIncident({ status: 'takedown_ready' }) })
        : linkedView();
    const client = clientServing(view, {});
    client.setHandler((request) => {
      if (request.type === 'POST') {
        approved = true;
        return { status: 200, body: { message: 'approved' } };
      }
      return { status: 200, body: view() };
    });
    renderSidebar(client);
    const actions = await screen.findByTestId('actions');
    fireEvent.click(within(actions).getByRole('button', { name: /^Approve takedown/ }));
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Approve' }),
    );
    await waitFor(() =>
      expect(screen.getByTestId('status').textContent).toContain('Takedown ready'),
    );
    const [post] = posts(client);
    expect(new URL(post!.url).pathname).toBe('/sidebar/tickets/42/approve-takedown');
    // the author is the session's agent, named by the connector, never by the page
    expect(JSON.parse(post!.data!)).toEqual({});
    expect(screen.getByText('Takedown approved.')).toBeTruthy();
    expect(
      within(screen.getByTestId('actions')).queryByRole('button', { name: /^Approve takedown/ }),
    ).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps "Takedown approved." only until the incident moves on from the state it led to', async () => {
    let status = 'approval_required';
    const view = () => linkedView({ incident: detailedIncident({ status }) });
    const client = clientServing(view, {});
    client.setHandler((request) => {
      if (request.type === 'POST') {
        status = 'takedown_ready';
        return { status: 200, body: { message: 'approved' } };
      }
      return { status: 200, body: view() };
    });
    renderSidebar(client);
    const actions = await screen.findByTestId('actions');
    fireEvent.click(within(actions).getByRole('button', { name: /^Approve takedown/ }));
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Approve' }),
    );
    await waitFor(() =>
      expect(screen.getByTestId('status').textContent).toContain('Takedown ready'),
    );
    expect(screen.getByText('Takedown approved.')).toBeTruthy();

    for (const [next, label] of [
      ['takedown_in_progress', 'Takedown in progress'],
      ['action_required', 'Action required'],
    ] as const) {
      status = next;
      fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
      await waitFor(() => expect(screen.getByTestId('status').textContent).toContain(label));
      expect(screen.queryByText('Takedown approved.')).toBeNull();
    }
  });

  it('explains 403 as no credits left', async () => {
    const { actions, dialog } = await openApprove({
      status: 403,
      body: { error: { code: 'no_credits', message: 'x' } },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    const alert = await within(actions).findByRole('alert');
    expect(alert.textContent).toContain('There are no takedown credits left');
    expect(within(alert).queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it("reads the connector's no_credits as a credits problem, and another 403 as what it is", async () => {
    const { actions, dialog } = await openApprove({
      status: 403,
      body: { error: { code: 'no_credits' } },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect((await within(actions).findByRole('alert')).textContent).toContain(
      'no takedown credits',
    );
  });

  it('does not call a refused session a credits problem', async () => {
    const { actions, dialog } = await openApprove({
      status: 403,
      body: { error: { code: 'forbidden' } },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    const alert = (await within(actions).findByRole('alert')).textContent;
    expect(alert).toContain('not allowed');
    expect(alert).not.toContain('credits');
  });

  it('explains 409 as no longer awaiting approval and refreshes the view', async () => {
    const { client, actions, dialog } = await openApprove({
      status: 409,
      body: { error: { code: 'not_awaiting_approval' } },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect((await within(actions).findByRole('alert')).textContent).toContain(
      'no longer awaiting approval',
    );
    await waitFor(() => expect(client.requests.filter((r) => r.type === 'GET')).toHaveLength(2));
  });

  it('explains 503 as retry later and retries on request', async () => {
    const { client, actions, dialog } = await openApprove({ status: 503, body: {} });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    const alert = await within(actions).findByRole('alert');
    expect(alert.textContent).toContain('Approval is temporarily unavailable');
    client.setHandler((request) =>
      request.type === 'POST' ? { status: 200, body: {} } : { status: 200, body: linkedView() },
    );
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Takedown approved.')).toBeTruthy();
    expect(posts(client)).toHaveLength(2);
  });

  it('explains a network failure', async () => {
    const { actions, dialog } = await openApprove('network');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect((await within(actions).findByRole('alert')).textContent).toContain(
      'could not be reached',
    );
  });
});

describe('other incident actions', () => {
  it.each([
    ['Request takedown', 'takedown', 'Takedown requested.', 'pre_weaponised'],
    ['Move to monitoring', 'monitor', 'Monitoring requested.', 'case_building'],
    ['Mark safe', 'safe', 'Marked as safe.', 'approval_required'],
  ])(
    '"%s" from More actions confirms, posts to actions/%s and reports success',
    async (button, action, success, status) => {
      const client = clientServing(linkedView({ incident: detailedIncident({ status }) }));
      renderSidebar(client);
      await chooseMoreAction(button);
      const dialog = await screen.findByRole('dialog');
      expect(posts(client)).toHaveLength(0);
      fireEvent.click(
        within(dialog)
          .getAllByRole('button')
          .find((b) => b.textContent === button)!,
      );
      expect(await screen.findByText(success)).toBeTruthy();
      expect(new URL(posts(client)[0]!.url).pathname).toBe(`/sidebar/tickets/42/actions/${action}`);
    },
  );
});

describe('sync health', () => {
  it('alerts about pending and failed forwards and retries one', async () => {
    const view = linkedView({
      sync: {
        lastEventAppliedAt: null,
        pendingForwards: 2,
        waitingTicketUpdates: 0,
        waitingSince: null,
        writesPausedUntil: null,
        failedForwards: [
          {
            id: 'fw/1',
            kind: 'comment',
            failedAt: '2026-11-03T09:00:00.000Z',
            attempts: 5,
            lastError: 'HTTP 500',
          },
        ],
      },
    });
    const client = clientServing(view);
    renderSidebar(client);
    const sync = await screen.findByTestId('sync');
    expect(sync.getAttribute('role')).toBe('alert');
    expect(sync.textContent).toContain('Changes are not in sync');
    expect(sync.textContent).toContain('2 updates are waiting to be sent.');
    expect(sync.textContent).toContain('5 attempts');
    expect(within(sync).getByTestId('failed-forward').textContent).toContain('HTTP 500');
    fireEvent.click(
      within(sync).getByRole('button', {
        name: 'Retry: a reply forwarded to the incident service',
      }),
    );
    expect(await within(sync).findByText('Forward queued again.')).toBeTruthy();
    expect(new URL(posts(client)[0]!.url).pathname).toBe(
      '/sidebar/tickets/42/forwards/fw%2F1/retry',
    );
  });

  it('retries every failed forward from the warning line, without opening the details', async () => {
    const failed = (id: string) => ({
      id,
      kind: 'comment',
      failedAt: '2026-11-03T09:00:00.000Z',
      attempts: 5,
      lastError: 'HTTP 500',
    });
    const view = linkedView({
      sync: {
        lastEventAppliedAt: null,
        pendingForwards: 0,
        waitingTicketUpdates: 0,
        waitingSince: null,
        writesPausedUntil: null,
        failedForwards: [failed('fw-1'), failed('fw-2')],
      },
    });
    const client = clientServing(view);
    renderSidebar(client);
    const sync = await screen.findByTestId('sync');
    fireEvent.click(within(sync).getByRole('button', { name: 'Retry now' }));
    expect(await within(sync).findByText('Forward queued again.')).toBeTruthy();
    expect(posts(client).map((post) => new URL(post.url).pathname)).toEqual([
      '/sidebar/tickets/42/forwards/fw-1/retry',
      '/sidebar/tickets/42/forwards/fw-2/retry',
    ]);
  });
});
