// The analytics section in jsdom against a stubbed /admin/api: every chart drawn from the answer
// with its CSV link, the weekly chart stacked by outcome or type, one client chosen, a partial
// answer named, an account without the incident connection, and hostile text shown as text.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ThemeProvider } from '@zendeskgarden/react-theming';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Analytics } from '../src/sections/Analytics';
import { analyticsOf, HOSTILE } from './analytics-fixture';
import { stubFetch } from './fetch-stub';

afterEach(() => {
  vi.unstubAllGlobals();
});

const renderSection = () =>
  render(
    <ThemeProvider>
      <Analytics />
    </ThemeProvider>,
  );

describe('analytics section', () => {
  it('draws every chart with bars and a CSV link, and the waiting incidents with their tickets', async () => {
    stubFetch({ 'GET /analytics': { body: analyticsOf() } });
    renderSection();
    await screen.findByTestId('analytics-charts');
    const ids = [
      'reports-per-week',
      'time-by-registrar',
      'time-by-hosting',
      'success-rate',
      'blocklist-coverage',
      'credits',
      'waiting-on-customer',
    ];
    for (const id of ids) {
      const chart = screen.getByTestId(`chart-${id}`);
      expect([id, within(chart).getAllByTestId('bar-row').length > 0]).toEqual([id, true]);
      expect(chart.querySelector('svg[role="img"] desc')?.textContent).toMatch(/\d/);
    }
    expect(screen.getByTestId('csv-reports-per-week').getAttribute('href')).toBe(
      '/admin/api/analytics.csv?chart=reports-per-week',
    );
    expect(screen.getByTestId('csv-credits').getAttribute('href')).toBe(
      '/admin/api/analytics.csv?chart=credits',
    );
    // two weeks, stacked by outcome by default
    const weekly = screen.getByTestId('chart-reports-per-week');
    expect(within(weekly).getAllByTestId('bar-row')).toHaveLength(2);
    expect(within(weekly).getAllByText('taken down').length).toBeGreaterThan(0);
    // the median is shown next to each registrar's bar
    expect(
      within(screen.getByTestId('chart-time-by-registrar')).getAllByText('median 5 d').length,
    ).toBeGreaterThan(0);
    expect(screen.getByText('Median over all takedowns: 20 h (4 takedowns)')).toBeTruthy();
    expect(screen.getByTestId('blocklist-coverage-summary').textContent).toBe(
      '4 of 6 incidents read have a blocklist listing (67%).',
    );
    const table = screen.getByTestId('waiting-table');
    expect(within(table).getByRole('link', { name: /#42/ }).getAttribute('href')).toBe(
      'https://demo.zendesk.example/agent/tickets/42',
    );
    // attacker-controlled text stays text
    expect(within(table).getByText(HOSTILE)).toBeTruthy();
    expect(document.querySelector('img[src="x"]')).toBeNull();
  });

  it('colours what a bar means: failures red, successes green, the longest wait the darkest; rates with their counts', async () => {
    stubFetch({ 'GET /analytics': { body: analyticsOf() } });
    renderSection();
    await screen.findByTestId('analytics-charts');
    const fillOf = (chart: string, series: string) =>
      [...screen.getByTestId(`chart-${chart}`).querySelectorAll('rect')]
        .find((rect) => rect.querySelector('title')?.textContent?.includes(`, ${series}:`))
        ?.getAttribute('fill');
    expect(fillOf('success-rate', 'succeeded')).toBe('#038153');
    expect(fillOf('success-rate', 'failed')).toBe('#cc3340');
    const legend = screen.getByRole('list', { name: /Time from report to takedown by registrar/ });
    const swatches = [...legend.querySelectorAll('span[aria-hidden="true"]')].map((span) => {
      const [r, g, b] = (span as HTMLElement).style.background.match(/\d+/g)!.map(Number);
      return `#${[r, g, b].map((n) => n!.toString(16).padStart(2, '0')).join('')}`;
    });
    // quick to slow: green, yellow, orange, dark red (over 7 days the most alarming)
    expect(swatches).toEqual(['#038153', '#c38f00', '#ad5918', '#8c232c']);
    // a rate says how many it counts
    expect(screen.getByTestId('chart-success-rate').querySelector('svg desc')?.textContent).toMatch(
      /\d+% of \d+/,
    );
  });

  it('stacks the weekly chart by incident type on request', async () => {
    stubFetch({ 'GET /analytics': { body: analyticsOf() } });
    renderSection();
    await screen.findByTestId('analytics-charts');
    await userEvent
      .setup()
      .selectOptions(screen.getByRole('combobox', { name: 'Stack incidents per week by' }), 'type');
    const weekly = screen.getByTestId('chart-reports-per-week');
    expect(within(weekly).getAllByText('email').length).toBeGreaterThan(0);
    expect(within(weekly).queryByText('taken down')).toBeNull();
  });

  it("shows one client's numbers when chosen, and its CSV links name it", async () => {
    const calls = stubFetch({
      'GET /analytics': { body: analyticsOf() },
      'GET /analytics?client=cl_b': {
        body: analyticsOf({
          clientFilter: 'cl_b',
          clients: [{ id: 'cl_b', name: 'Retail' }],
          reportsPerWeek: [],
        }),
      },
    });
    renderSection();
    await screen.findByTestId('analytics-charts');
    await userEvent
      .setup()
      .selectOptions(screen.getByRole('combobox', { name: 'Incident client' }), 'cl_b');
    await waitFor(() => expect(calls.map((c) => c.route)).toContain('GET /analytics?client=cl_b'));
    expect(await screen.findByTestId('chart-reports-per-week-empty')).toBeTruthy();
    expect(screen.getByTestId('csv-success-rate').getAttribute('href')).toBe(
      '/admin/api/analytics.csv?chart=success-rate&client=cl_b',
    );
    // the picker still offers every client of the account
    const options = [
      ...(screen.getByRole('combobox', { name: 'Incident client' }) as HTMLSelectElement).options,
    ].map((o) => o.value);
    expect(options).toEqual(['', 'cl_a', 'cl_b']);
  });

  it('names what the service did not answer', async () => {
    stubFetch({
      'GET /analytics': {
        body: analyticsOf({
          partial: [{ clientId: 'cl_b', part: 'incidents', message: 'ServiceUnavailable' }],
        }),
      },
    });
    renderSection();
    const partial = await screen.findByTestId('analytics-partial');
    expect(partial.textContent).toContain('Retail: incidents: ServiceUnavailable');
  });

  it('without the incident connection, says what to do', async () => {
    stubFetch({
      'GET /analytics': {
        status: 409,
        body: { error: { code: 'not_configured', message: 'connect the incident service first' } },
      },
    });
    renderSection();
    expect(await screen.findByText('No analytics yet')).toBeTruthy();
    expect(screen.queryByTestId('analytics-charts')).toBeNull();
  });
});
