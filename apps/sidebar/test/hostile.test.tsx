import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderSidebar, clientServing } from './render';
import { detailedIncident, linkedView, ticketOnlyView } from './fixtures';

const SCRIPT = '<script>window.__pwned = true</script>';
const IMG = '<img src=x onerror="window.__pwned = true">';
const JS_URL = 'javascript:window.__pwned=true';

function assertInert(container: HTMLElement) {
  expect(container.querySelector('script')).toBeNull();
  expect(container.querySelector('img')).toBeNull();
  expect(container.querySelector('[onerror]')).toBeNull();
  for (const anchor of container.querySelectorAll('a')) {
    expect(anchor.getAttribute('href') ?? '').toMatch(/^https?:\/\//);
  }
  expect((window as { __pwned?: boolean }).__pwned).toBeUndefined();
}

describe('attacker-controlled strings', () => {
  it('render as inert text in subject, url, taxonomy, history, blocklists, insights and snapshots', async () => {
    const incident = detailedIncident({
      subject: `https://evil.example/${SCRIPT}`,
      url: JS_URL,
      reportedBy: IMG,
      threatTaxonomy: { name: SCRIPT, description: IMG },
      history: [
        { timestamp: '2026-11-03T09:30:00.000Z', message: SCRIPT },
        { timestamp: '2026-11-02T09:30:00.000Z', message: IMG },
        { timestamp: '2026-11-01T09:30:00.000Z', message: `<a href="${JS_URL}">click</a>` },
      ],
      hostingProvider: IMG,
      registrar: { name: SCRIPT, difficulty: IMG },
      blocklists: [{ authority: IMG, type: SCRIPT, status: SCRIPT, listedAt: null, link: JS_URL }],
      insights: {
        snapshotTimestamp: '2026-11-02T07:00:00.000Z',
        page: { title: SCRIPT, headings: [IMG] },
        indicators: { finalUrl: JS_URL, redirectChain: [SCRIPT] },
      },
    });
    const view = linkedView({
      incident,
      snapshots: [
        {
          id: 's',
          incidentId: 'inc_123',
          type: SCRIPT,
          timestamp: 'not a date',
          description: IMG,
          dns: { [SCRIPT]: { records: [IMG], rcode: SCRIPT } },
        },
      ],
      sync: {
        lastEventAppliedAt: null,
        pendingForwards: 0,
        waitingTicketUpdates: 0,
        waitingSince: null,
        writesPausedUntil: null,
        failedForwards: [{ id: IMG, kind: SCRIPT, failedAt: '', attempts: 1, lastError: IMG }],
      },
    });
    const { container } = renderSidebar(clientServing(view));
    await screen.findByTestId('state-linked');
    assertInert(container);
    expect(screen.getAllByText(SCRIPT).length).toBeGreaterThan(0);
    expect(screen.getAllByText(IMG).length).toBeGreaterThan(0);
    expect(screen.getByTestId('subject').textContent).toContain(
      'hxxps[:]//evil[.]example/<script>',
    );
    expect(screen.getByTestId('blocklist').textContent).toContain(
      'javascript[:]window[.]__pwned=true',
    );
  });

  it('render as inert text in the Threat field and the unlink reason', async () => {
    const { container } = renderSidebar(
      clientServing(
        ticketOnlyView('failed', { threat: `${JS_URL}${IMG}`, unlinkedReason: SCRIPT }),
      ),
    );
    await screen.findByTestId('link-failed');
    assertInert(container);
    expect(screen.getByTestId('unlinked-reason').textContent).toBe(SCRIPT);
  });
});
