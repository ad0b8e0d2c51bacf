// Errors name their cause and keep the context on screen.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderSidebar } from './render';
import { createFakeZafClient, type FakeReply } from './fakeZafClient';
import { linkedView } from './fixtures';
import { SLOW_AFTER_MS } from '../src/app/components/LoadingSkeleton';

const failingWith = (reply: FakeReply) => createFakeZafClient({ handler: () => reply });

describe('first load errors', () => {
  it.each([
    [
      'rate limited, with when to retry',
      { status: 429, body: {}, headers: { 'retry-after': '30' } },
      'The incident service is limiting requests. Try again in 30 seconds.',
    ],
    [
      'rate limited for one second, in the singular',
      { status: 429, body: { error: { retryAfterSeconds: 1 } } },
      'Try again in 1 second.',
    ],
    [
      'rate limited without a delay',
      { status: 429, body: {} },
      'The incident service is limiting requests. Try again in a moment.',
    ],
    ['service unavailable', { status: 503, body: {} }, 'The incident service is unavailable'],
    ['connector unreachable', 'network', 'The connector could not be reached'],
    ['not found', { status: 404, body: {} }, 'The incident or ticket was not found.'],
  ] as const)('%s', async (_, reply, text) => {
    renderSidebar(failingWith(reply as FakeReply));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(text);
    // the ticket stays named, and a 429 is never called unreachable
    expect(within(alert).getByTestId('error-context').textContent).toBe('Ticket #42');
    if (reply !== 'network') expect(alert.textContent).not.toContain('could not be reached');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('a slow answer shows a labelled skeleton that says the service is slow', async () => {
    renderSidebar(failingWith('hang'));
    // the view's skeleton names the ticket (earlier ones wait for Zendesk, not the service)
    const skeleton = (await screen.findByText('Ticket #42')).closest(
      '[data-testid="loading-skeleton"]',
    ) as HTMLElement;
    expect(skeleton.getAttribute('role')).toBe('status');
    expect(within(skeleton).getByTestId('loading-label').textContent).toBe(
      'Loading incident details',
    );
    expect(
      await within(skeleton).findByText(
        'Still waiting for the incident service; it is slow to answer.',
        {},
        { timeout: SLOW_AFTER_MS + 2000 },
      ),
    ).toBeTruthy();
  });
});

describe('refresh errors', () => {
  it('a 429 on refresh keeps the incident id and threat on screen and says when to retry', async () => {
    let reply: FakeReply = { status: 200, body: linkedView() };
    renderSidebar(createFakeZafClient({ handler: () => reply }));
    await screen.findByTestId('status-card');
    reply = { status: 429, body: {}, headers: { 'retry-after': '20' } };
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Try again in 20 seconds.');
    expect(screen.getByTestId('incident-id').textContent).toContain('inc_123');
    expect(screen.getByTestId('subject').textContent).toContain('acme-secure[.]example');
  });
});
