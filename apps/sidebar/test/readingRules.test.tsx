import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { expandSection, renderSidebar, clientServing } from './render';
import { detailedIncident, linkedView } from './fixtures';
import type { TSidebarTicketView } from '@incident-desk/sidebar-contract';

async function show(view: TSidebarTicketView, currentUser?: Record<string, unknown>) {
  renderSidebar(clientServing(view, {}, currentUser ? { currentUser } : {}));
  return screen.findByTestId(`state-${view.ticket.linkState}`);
}

const textOf = (testId: string) => screen.getByTestId(testId).textContent ?? '';

describe('incident overview', () => {
  it('shows the status with its meaning from the spec', async () => {
    await show(linkedView());
    expect(textOf('status')).toContain('Approval required');
    expect(textOf('status')).toContain('The takedown is waiting for your approval.');
  });

  it('shows an unknown status readably, flagged as unknown, with no action, not as an error', async () => {
    await show(linkedView({ incident: detailedIncident({ status: 'brand_new_state' }) }));
    expect(textOf('status')).toContain('Brand new state');
    expect(textOf('status')).not.toContain('brand_new_state');
    expect(textOf('status')).toContain('does not know yet');
    expect(within(screen.getByTestId('actions')).queryAllByRole('button')).toHaveLength(0);
  });

  it('defangs the subject and copies the raw value', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await show(linkedView());
    const subject = screen.getByTestId('subject');
    expect(subject.textContent).toContain('hxxps[:]//login[.]acme-secure[.]example/verify');
    expect(subject.textContent).not.toContain('https://');
    fireEvent.click(within(subject).getByRole('button', { name: 'Copy the raw threat value' }));
    await waitFor(() =>
      expect(writeText).toHaveBeenCalledWith('https://login.acme-secure.example/verify'),
    );
    expect(await within(subject).findByText('Copied')).toBeTruthy();
  });

  it('shows incident type, class, taxonomy and reporter', async () => {
    await show(linkedView());
    const overview = textOf('overview');
    expect(overview).toContain('Domain or URL');
    expect(overview).toContain('phishing');
    expect(overview).toContain('reporter@acme.example');
    const taxonomy = textOf('taxonomy');
    for (const text of [
      'Credential phishing',
      'Fake login page',
      'Brand',
      'Phishing site',
      'Credential theft',
    ]) {
      expect(taxonomy).toContain(text);
    }
  });

  it("formats dates in the agent's locale and time zone", async () => {
    await show(linkedView(), {
      id: 7,
      email: 'a@acme.example',
      locale: 'en-US',
      timeZone: { ianaName: 'Asia/Tokyo' },
    });
    // 2026-11-01T10:00Z is 19:00 in Tokyo.
    const created = screen.getAllByText(
      (_, el) =>
        el?.tagName === 'TIME' && el.getAttribute('datetime') === '2026-11-01T10:00:00.000Z',
    );
    expect(created[0]!.textContent).toMatch(/7:00\s?PM/);
  });

  it('uses the French strings and French date format for a fr-CA agent (fallback to language)', async () => {
    await show(linkedView(), {
      id: 7,
      email: 'a@acme.example',
      locale: 'fr-CA',
      timeZone: { ianaName: 'Europe/Paris' },
    });
    expect(textOf('status')).toContain('Approbation requise');
    const time = screen.getAllByText(
      (_, el) =>
        el?.tagName === 'TIME' && el.getAttribute('datetime') === '2026-11-01T10:00:00.000Z',
    );
    expect(time[0]!.textContent).toContain('11 h 00');
  });

  it('falls back to English for a locale without translations', async () => {
    await show(linkedView(), {
      id: 7,
      email: 'a@acme.example',
      locale: 'ja',
      timeZone: 'not/a zone',
    });
    expect(textOf('status')).toContain('Approval required');
  });
});

describe('history, live state and infrastructure', () => {
  it('lists the history newest first', async () => {
    await show(linkedView());
    const entries = screen.getAllByTestId('history-entry').map((e) => e.textContent);
    expect(entries[0]).toContain('Awaiting approval');
    expect(entries[1]).toContain('Analyst assigned');
    expect(entries[2]).toContain('Incident reported');
  });

  it('shows which live-state flags are set and the scan time', async () => {
    await show(linkedView());
    await expandSection('Live state');
    const live = screen.getByTestId('live-state');
    const flags = within(live)
      .getAllByRole('listitem')
      .map((i) => i.textContent);
    expect(flags).toEqual(['Responding', 'Warning page shown']);
    expect(live.textContent).toContain('Scanned');
    expect(live.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-03T08:00:00.000Z');
  });

  it('shows the registrar with its takedown difficulty and the hosting provider', async () => {
    await show(linkedView());
    const infra = textOf('infrastructure');
    expect(infra).toContain('Example Registrar Ltd');
    expect(infra).toMatch(/Takedown difficulty\s*Hard/);
    expect(infra).toContain('Example Hosting');
  });

  it.each([
    ['very_hard', 'Very hard'],
    ['next_to_impossible', 'Next to impossible'],
  ])('shows the difficulty %s as a label, never the raw value', async (difficulty, label) => {
    await show(
      linkedView({ incident: detailedIncident({ registrar: { name: 'R', difficulty } }) }),
    );
    expect(textOf('infrastructure')).toMatch(new RegExp(`Takedown difficulty\\s*${label}`));
    expect(textOf('infrastructure')).not.toContain(difficulty);
  });
});

describe('blocklists', () => {
  it('shows submitted as protection in progress, never as a failure, and listed with its date', async () => {
    await show(linkedView());
    const [listed, submitted] = screen.getAllByTestId('blocklist');
    expect(listed!.textContent).toContain('SafeBrowse');
    expect(listed!.textContent).toContain('Listed');
    expect(listed!.textContent).toContain('Browser warning page');
    expect(listed!.querySelector('time')?.getAttribute('datetime')).toBe(
      '2026-11-02T15:00:00.000Z',
    );
    expect(submitted!.textContent).toContain('Submitted');
    expect(submitted!.textContent).toContain('Protection in progress');
    expect(submitted!.textContent).toContain('not confirmed yet');
    expect(submitted!.textContent).not.toMatch(/fail|error/i);
    expect(within(submitted!).queryByRole('link')).toBeNull();
  });

  it("links to the partner's page and defangs a link that points at the threat or is not http", async () => {
    const incident = detailedIncident({
      blocklists: [
        {
          authority: 'SafeBrowse',
          type: 'blocklist',
          status: 'listed',
          listedAt: '2026-11-02T15:00:00.000Z',
          link: 'https://safebrowse.partner.example/l/1',
        },
        {
          authority: 'Mirror',
          type: 'blocklist',
          status: 'listed',
          listedAt: null,
          link: 'https://cdn.acme-secure.example/fake',
        },
        {
          authority: 'Weird',
          type: 'blocklist',
          status: 'listed',
          listedAt: null,
          link: 'javascript:alert(1)',
        },
      ],
    });
    await show(linkedView({ incident }));
    await expandSection('Blocklists');
    const [partner, hostile, script] = screen.getAllByTestId('blocklist');
    const anchor = within(partner!).getByRole('link');
    expect(anchor.getAttribute('href')).toBe('https://safebrowse.partner.example/l/1');
    expect(anchor.getAttribute('rel')).toContain('noopener');
    expect(within(hostile!).queryByRole('link')).toBeNull();
    expect(hostile!.textContent).toContain('hxxps[:]//cdn[.]acme-secure[.]example/fake');
    expect(within(script!).queryByRole('link')).toBeNull();
    expect(script!.textContent).toContain('javascript[:]alert(1)');
  });

  it('leaves the section out when nothing was submitted', async () => {
    await show(linkedView({ incident: detailedIncident({ blocklists: [] }) }));
    expect(screen.queryByTestId('details-blocklists')).toBeNull();
    expect(screen.queryByText('Nothing submitted to partners yet.')).toBeNull();
  });
});

describe('insights', () => {
  it('shows only present categories, with the snapshot time, and null as undetermined', async () => {
    await show(linkedView());
    const insights = screen.getByTestId('insights');
    expect(insights.textContent).toContain('From the capture of');
    expect(screen.getByTestId('insights-dns')).toBeTruthy();
    expect(screen.getByTestId('insights-whois').textContent).toMatch(/New domain\s*Yes/);
    expect(screen.getByTestId('insights-whois').textContent).toMatch(/Expired\s*Undetermined/);
    expect(screen.getByTestId('insights-certificate').textContent).toMatch(/Valid\s*Undetermined/);
    // Absent categories are not rendered at all, and never as "No".
    expect(screen.queryByTestId('insights-hosting')).toBeNull();
    expect(screen.queryByTestId('insights-page')).toBeNull();
    expect(screen.queryByTestId('insights-indicators')).toBeNull();
    expect(insights.textContent).toContain('not a negative finding');
  });

  it('leaves out each row the service did not send, never showing a label with nothing after it', async () => {
    await show(linkedView());
    const whois = textOf('insights-whois');
    expect(whois).toMatch(/Age \(days\)\s*3/);
    // Sent: created; not sent: updated, expiry, statuses, the IANA id.
    expect(whois).toContain('Created');
    expect(whois).not.toContain('Updated');
    expect(whois).not.toContain('Expires');
    const certificate = textOf('insights-certificate');
    expect(certificate).not.toContain('Valid from');
    expect(certificate).toContain('login[.]acme-secure[.]example');
  });

  it('leaves insights out when none were captured, keeping the snapshots', async () => {
    await show(linkedView({ incident: detailedIncident({ insights: undefined }) }));
    expect(screen.queryByTestId('insights')).toBeNull();
    expect(screen.queryByText('No insights captured yet.')).toBeNull();
    expect(screen.getByTestId('snapshots')).toBeTruthy();
  });

  it('leaves the merged section out when there are neither insights nor snapshots', async () => {
    await show(linkedView({ incident: detailedIncident({ insights: undefined }), snapshots: [] }));
    expect(screen.queryByTestId('details-insightsSnapshots')).toBeNull();
  });

  it('renders the richer categories when present', async () => {
    const incident = detailedIncident({
      insights: {
        snapshotTimestamp: '2026-11-02T07:00:00.000Z',
        hosting: {
          cdnDetected: false,
          providers: [
            {
              ip: '203.0.113.7',
              organization: 'Example Hosting',
              isCdn: false,
              abuseEmails: ['abuse@host.example'],
            },
          ],
        },
        page: { title: 'Sign in', headings: ['Welcome'], formInputCount: 2 },
        indicators: {
          finalUrl: 'https://login.acme-secure.example/x',
          redirectChain: ['http://a.example', 'https://b.example'],
        },
      },
    });
    await show(linkedView({ incident }));
    expect(textOf('insights-hosting')).toMatch(/CDN detected\s*No/);
    expect(textOf('insights-hosting')).toContain('203[.]0[.]113[.]7');
    expect(textOf('insights-page')).toContain('Sign in');
    expect(textOf('insights-indicators')).toContain('hxxps[:]//login[.]acme-secure[.]example/x');
    expect(screen.queryByTestId('insights-dns')).toBeNull();
  });
});

describe('snapshots', () => {
  it('lists snapshots newest first with DNS, WHOIS and certificate details', async () => {
    await show(linkedView());
    const [newest, oldest] = screen.getAllByTestId('snapshot');
    expect(newest!.textContent).toContain('second capture');
    expect(newest!.textContent).toContain("Let's Encrypt");
    expect(oldest!.textContent).toContain('first capture');
    expect(oldest!.textContent).toContain('DNS A');
    expect(oldest!.textContent).toContain('NOERROR');
    expect(oldest!.textContent).toContain('203[.]0[.]113[.]7');
    expect(oldest!.textContent).toContain('acme-secure[.]example');
  });

  it.each(['email', 'phone', 'ipv4'])(
    'shows no snapshot section, nor boilerplate, for %s incidents',
    async (incidentType) => {
      await show(
        linkedView({
          incident: detailedIncident({ incidentType, insights: undefined }),
          snapshots: [],
        }),
      );
      expect(screen.queryByTestId('snapshots')).toBeNull();
      expect(screen.queryByTestId('details-insightsSnapshots')).toBeNull();
      expect(screen.queryByText(/not captured for email/)).toBeNull();
    },
  );

  it('shows no snapshot boilerplate for a new domain incident without any', async () => {
    await show(linkedView({ snapshots: [] }));
    expect(screen.queryByTestId('snapshots')).toBeNull();
    expect(screen.queryByText('No snapshots yet.')).toBeNull();
  });

  it('says when snapshots could not be read this time', async () => {
    await show(
      linkedView({
        snapshots: [],
        unavailable: [{ part: 'snapshots', reason: 'temporarily_unavailable' }],
      }),
    );
    expect(textOf('snapshots')).toContain('Temporarily unavailable');
  });
});

describe('takedown attempts', () => {
  it('applies the reading rules, newest first', async () => {
    const view = linkedView();
    view.takedownAttempts!.takedownAttempts = [
      { startedAt: null, resolvedAt: '2026-10-01T00:00:00.000Z', outcome: 'failed' },
      { startedAt: null, resolvedAt: null, outcome: 'closed' },
      { startedAt: '2026-11-02T00:00:00.000Z', resolvedAt: null, outcome: null },
      {
        startedAt: '2026-11-03T00:00:00.000Z',
        resolvedAt: '2026-11-03T05:00:00.000Z',
        outcome: 'success',
      },
      { startedAt: '2026-11-04T00:00:00.000Z', resolvedAt: null, outcome: null },
    ];
    await show(view);
    const attempts = screen.getAllByTestId('attempt').map((a) => a.textContent ?? '');
    expect(attempts[0]).toContain('In progress');
    expect(attempts[1]).toContain('Taken down');
    expect(attempts[2]).toContain('Restarted');
    expect(attempts[2]).toContain('A new attempt started before this one finished.');
    expect(attempts[3]).toContain('Closed without result');
    expect(attempts[3]).toContain('before recording began (date unknown)');
    expect(attempts[3]).toMatch(/Started\s*before recording began/);
    expect(attempts[4]).toContain('Failed');
    expect(attempts[4]).toMatch(/Started\s*before recording began/);
    expect(attempts[4]).not.toContain('date unknown');
  });

  it('leaves the section out while no attempt is recorded', async () => {
    await show(linkedView());
    expect(screen.queryByTestId('details-attempts')).toBeNull();
  });

  it('leaves the section out when takedown history is not enabled for the account', async () => {
    await show(
      linkedView({
        takedownAttempts: null,
        unavailable: [{ part: 'takedownAttempts', reason: 'not_enabled' }],
      }),
    );
    expect(screen.queryByTestId('details-attempts')).toBeNull();
  });

  it('says when the attempts could not be read this time', async () => {
    await show(
      linkedView({
        takedownAttempts: null,
        unavailable: [{ part: 'takedownAttempts', reason: 'temporarily_unavailable' }],
      }),
    );
    expect(textOf('attempts')).toContain('Temporarily unavailable');
  });
});

describe('credits', () => {
  it.each([
    [5, '5 credits left'],
    [0, 'No credits left'],
    ['unlimited', 'Unlimited'],
    [null, 'Not applicable: this client does not use credits'],
  ] as const)('shows remainingCredits %s as "%s"', async (remainingCredits, text) => {
    await show(linkedView({ usage: { clientId: 'c', clientName: 'Acme', remainingCredits } }));
    expect(textOf('credits-value')).toBe(text);
  });

  it('says the balance is unavailable when usage could not be read', async () => {
    await show(
      linkedView({
        usage: null,
        unavailable: [{ part: 'usage', reason: 'temporarily_unavailable' }],
      }),
    );
    expect(textOf('credits-value')).toContain('Temporarily unavailable');
  });
});

describe('overview times and sync health dates', () => {
  const timeOf = (container: HTMLElement, label: string) => {
    const term = within(container)
      .getAllByText(label)
      .find((el) => el.tagName === 'DT');
    return term?.nextElementSibling?.querySelector('time')?.getAttribute('datetime') ?? null;
  };

  it('shows created, last update, takedown started and taken down, each with its time', async () => {
    await show(
      linkedView({
        incident: detailedIncident({
          status: 'takedown_success',
          takedownTimestamp: '2026-11-04T08:00:00.000Z',
        }),
      }),
    );
    const overview = screen.getByTestId('overview');
    expect(timeOf(overview, 'Created')).toBe('2026-11-01T10:00:00.000Z');
    expect(timeOf(overview, 'Last update')).toBe('2026-11-03T09:30:00.000Z');
    expect(timeOf(overview, 'Takedown started')).toBe('2026-11-02T12:00:00.000Z');
    expect(timeOf(overview, 'Taken down')).toBe('2026-11-04T08:00:00.000Z');
  });

  it('leaves out the times an incident does not have yet, instead of an empty or invalid date', async () => {
    await show(
      linkedView({
        incident: detailedIncident({
          burnStartedTimestamp: undefined,
          takedownTimestamp: undefined,
        }),
      }),
    );
    const overview = screen.getByTestId('overview');
    expect(within(overview).queryByText('Takedown started')).toBeNull();
    expect(within(overview).queryByText('Taken down')).toBeNull();
    expect(overview.textContent).not.toMatch(/Invalid|NaN|undefined|null/);
  });

  it('shows when a forward failed, in the agent’s time zone', async () => {
    await show(
      linkedView({
        sync: {
          lastEventAppliedAt: '2026-11-03T09:32:00.000Z',
          pendingForwards: 0,
          waitingTicketUpdates: 0,
          waitingSince: null,
          writesPausedUntil: null,
          failedForwards: [
            {
              id: 'f1',
              kind: 'status',
              failedAt: '2026-11-03T09:32:00.000Z',
              attempts: 1,
              lastError: 'HTTP 500',
            },
          ],
        },
      }),
      { id: 7, email: 'a@acme.example', locale: 'en-US', timeZone: { ianaName: 'Asia/Tokyo' } },
    );
    const sync = screen.getByTestId('sync');
    expect(sync.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-03T09:32:00.000Z');
    // 09:32Z is 18:32 in Tokyo
    expect(sync.textContent).toMatch(/6:32\s?PM/);
    expect(sync.textContent).toContain('1 attempt');
    // a kind the app has no words for is still readable
    expect(sync.textContent).toContain('Not done: Status');
    expect(sync.textContent).not.toContain('1 attempts');
  });
});
