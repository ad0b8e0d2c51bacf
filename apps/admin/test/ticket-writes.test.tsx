// The admin page says whether incident changes reach the account's tickets, not only that its
// token is valid: failing since when and why (a Zendesk 5xx, 429, a refused token or scope), late
// without an error, or up to date, with how many changes wait and for how long.
import { render, screen, within } from '@testing-library/react';
import { ThemeProvider } from '@zendeskgarden/react-theming';
import type { TicketWriteHealth } from '@incident-desk/admin-contract';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Overview } from '../src/api';
import { Connection } from '../src/sections/Connection';
import { fr } from '../src/i18n/fr';
import { duration, ticketWriteText, timeOfDay } from '../src/ticket-write-text';
import { stubFetch } from './fetch-stub';
import { overviewOf } from './fixtures';

const CHECKED = '2026-11-23T12:00:00.000Z';
const clock = (iso: string) => iso.slice(11, 16);

function health(changes: Partial<TicketWriteHealth> = {}): TicketWriteHealth {
  return {
    state: 'ok',
    failure: null,
    recoveringFrom: null,
    waiting: 0,
    oldestWaitingAt: null,
    lateAfterSeconds: 120,
    checkedAt: CHECKED,
    ...changes,
  };
}

function failing(
  cause: NonNullable<TicketWriteHealth['failure']>['cause'],
  status: number | null,
  detail: string | null = null,
): TicketWriteHealth {
  return health({
    state: 'failing',
    failure: {
      cause,
      status,
      detail,
      since: '2026-11-23T11:55:00.000Z',
      lastAt: '2026-11-23T11:59:50.000Z',
    },
    waiting: 3,
    oldestWaitingAt: '2026-11-23T11:56:00.000Z',
  });
}

describe('ticketWriteText', () => {
  it('a Zendesk 5xx: failing since when, the status, and what waits', () => {
    expect(ticketWriteText(failing('zendesk_5xx', 500), clock)).toEqual({
      tone: 'failing',
      label: 'Failing',
      sentence:
        'Ticket updates are failing since 11:55: Zendesk answers 500 (3 changes waiting, oldest 4 min).',
      needsAuthorisation: false,
    });
  });

  it('recovering: Zendesk takes updates again, what the failure held back is being written', () => {
    const text = ticketWriteText(
      health({
        state: 'recovering',
        recoveringFrom: '2026-11-23T11:59:50.000Z',
        waiting: 8,
        oldestWaitingAt: '2026-11-23T11:56:00.000Z',
      }),
      clock,
    );
    expect(text).toEqual({
      tone: 'recovering',
      label: 'Recovering',
      sentence:
        'Zendesk takes ticket updates again after the failure at 11:59; the changes it held back are being written (8 changes waiting, oldest 4 min).',
      needsAuthorisation: false,
    });
  });

  it('a 429 reads as rate limited', () => {
    const text = ticketWriteText(failing('zendesk_rate_limited', 429, 'Retry-After 60 s'), clock);
    expect(text.label).toBe('Rate limited');
    expect(text.sentence).toBe(
      'Ticket updates are rate limited since 11:55: Zendesk answers 429, too many requests for this account (3 changes waiting, oldest 4 min).',
    );
  });

  it('a refused token or scope asks for a new authorisation', () => {
    const refused = ticketWriteText(failing('reauthorization_required', 401), clock);
    expect(refused.sentence).toBe(
      'Ticket updates are failing since 11:55: re-authorisation needed (3 changes waiting, oldest 4 min).',
    );
    expect(refused.needsAuthorisation).toBe(true);
    const scope = ticketWriteText(
      { ...failing('zendesk_forbidden', 403, 'missing scope tickets:write'), waiting: 0 },
      clock,
    );
    expect(scope.sentence).toBe(
      'Ticket updates are failing since 11:55: Zendesk refuses access (403, missing scope tickets:write): authorise incident-desk again with the scopes it asks for (no change waiting).',
    );
    expect(scope.needsAuthorisation).toBe(true);
  });

  it('timeouts and lost connections say so', () => {
    expect(ticketWriteText(failing('zendesk_timeout', null), clock).sentence).toContain(
      'failing since 11:55: Zendesk does not answer in time (',
    );
    expect(ticketWriteText(failing('zendesk_connection', null), clock).sentence).toContain(
      'Zendesk cannot be reached (',
    );
  });

  it('speaks French to a French admin: the tag, since when, why and what waits', () => {
    expect(ticketWriteText(failing('zendesk_5xx', 500), clock, fr.ticketWrites)).toEqual({
      tone: 'failing',
      label: 'En échec',
      sentence:
        'Les mises à jour des tickets échouent depuis 11:55 : Zendesk répond 500 (3 modifications en attente, la plus ancienne depuis 4 min).',
      needsAuthorisation: false,
    });
    expect(ticketWriteText(health(), clock, fr.ticketWrites)).toMatchObject({
      label: 'À jour',
      sentence: 'Les mises à jour des tickets atteignent Zendesk.',
    });
  });

  it('late without an error, and up to date', () => {
    const late = health({ state: 'late', waiting: 1, oldestWaitingAt: '2026-11-23T11:57:00.000Z' });
    expect(ticketWriteText(late, clock)).toMatchObject({
      tone: 'late',
      label: 'Late',
      sentence:
        'Ticket updates are late: 1 change waiting, oldest 3 min, longer than 2 min, though Zendesk reports no error.',
    });
    expect(ticketWriteText(health(), clock)).toMatchObject({
      tone: 'ok',
      label: 'Up to date',
      sentence: 'Ticket updates reach Zendesk.',
    });
    expect(
      ticketWriteText(health({ waiting: 2, oldestWaitingAt: '2026-11-23T11:59:58.000Z' }), clock)
        .sentence,
    ).toBe('Ticket updates reach Zendesk (2 changes waiting, oldest 2 s).');
  });

  it('counts ages from when the connector read them, in seconds, minutes and hours', () => {
    expect([0, 59, 60, 3599, 3600, 3900].map(duration)).toEqual([
      '0 s',
      '59 s',
      '1 min',
      '59 min',
      '1 h',
      '1 h 5 min',
    ]);
    // a failure that began on another day names the day too
    const today = timeOfDay('2026-11-23T11:55:00.000Z', CHECKED);
    const earlier = timeOfDay('2026-11-20T11:55:00.000Z', CHECKED);
    expect(earlier.endsWith(today)).toBe(true);
    expect(earlier.length).toBeGreaterThan(today.length);
  });
});

describe('Zendesk connection section', () => {
  const show = (overview: Overview) =>
    render(
      <ThemeProvider>
        <Connection overview={overview} />
      </ThemeProvider>,
    );

  it('shows failing ticket updates beside a valid token', () => {
    show({ ...overviewOf(), ticketWrites: failing('zendesk_5xx', 500) });
    expect(screen.getByTestId('connection-state').textContent).toContain('Token valid');
    const row = screen.getByTestId('ticket-writes');
    expect(row.textContent).toContain('Failing');
    expect(row.textContent).toMatch(
      /Ticket updates are failing since .+: Zendesk answers 500 \(3 changes waiting, oldest 4 min\)\./,
    );
    expect(row.querySelector('[data-tone]')?.getAttribute('data-tone')).toBe('failing');
    expect(screen.queryByText('Authorise incident-desk with Zendesk')).toBeNull();
  });

  it('a token Zendesk refuses is not called valid, and the page offers to authorise again', () => {
    show({ ...overviewOf(), ticketWrites: failing('reauthorization_required', 401) });
    expect(screen.getByTestId('connection-state').textContent).toContain(
      'Token refused by Zendesk',
    );
    expect(screen.getByTestId('ticket-writes').textContent).toContain('re-authorisation needed');
    const link = screen.getByRole('link', { name: 'Authorise incident-desk with Zendesk' });
    expect(link.getAttribute('href')).toBe('/install?subdomain=acme');
  });

  it('up to date, and late without an error', () => {
    const { unmount } = show(overviewOf());
    expect(
      within(screen.getByTestId('ticket-writes')).getByText('Ticket updates reach Zendesk.', {
        exact: false,
      }),
    ).toBeTruthy();
    unmount();
    show({
      ...overviewOf(),
      ticketWrites: health({
        state: 'late',
        waiting: 4,
        oldestWaitingAt: '2026-11-23T11:50:00.000Z',
      }),
    });
    expect(screen.getByTestId('ticket-writes').textContent).toContain(
      'Ticket updates are late: 4 changes waiting, oldest 10 min',
    );
  });

  it('with the grant revoked, updates are not called up to date: they wait for a reconnect', () => {
    show({
      ...overviewOf(),
      connection: { ...overviewOf().connection, state: 'reauthorization_required' },
    });
    const row = screen.getByTestId('ticket-writes');
    expect(row.textContent).not.toContain('Up to date');
    expect(row.textContent).toContain('cannot reach Zendesk until you reconnect');
    expect(screen.queryByRole('button', { name: 'Retry now' })).toBeNull();
  });

  it('late or failing updates offer Retry now, which wakes the writer', async () => {
    const calls = stubFetch({
      'POST /ticket-writes/retry': { status: 202, body: { woken: 3, pausedUntil: null } },
    });
    show({ ...overviewOf(), ticketWrites: failing('zendesk_5xx', 503) });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Retry now' }));
    expect(await screen.findByText('3 updates go to Zendesk now.')).toBeTruthy();
    expect(calls.map((c) => c.route)).toEqual(['POST /ticket-writes/retry']);
    vi.unstubAllGlobals();
  });

  it('an up-to-date account has no Retry now; the account row names the Zendesk the connector uses', () => {
    show(overviewOf());
    expect(screen.queryByRole('button', { name: 'Retry now' })).toBeNull();
    expect(screen.getByTestId('zendesk-account').textContent).toBe(
      'Accountacme at http://127.0.0.1:4010/_z/acme',
    );
  });
});
