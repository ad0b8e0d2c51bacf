// The analytics answer shaped into series and bars, without drawing: which series, in what order,
// which rows with what totals and notes, in English and in French; and how bars are laid out.
import { describe, expect, it } from 'vitest';
import {
  blocklistSeries,
  clientNameOf,
  creditSeries,
  durationSeries,
  formatHours,
  formatPercent,
  successSeries,
  totalIncidents,
  waitingSeries,
  weeklySeries,
} from '../src/analytics-shape';
import { durationColors } from '../src/chart-colors';
import { placeRows, shortLabel, textSummary } from '../src/chart-model';
import { en } from '../src/i18n/en';
import { fr } from '../src/i18n/fr';
import { analyticsOf } from './analytics-fixture';

const EN = en.analytics;
const FR = fr.analytics;

describe('weekly incidents', () => {
  const data = analyticsOf({
    reportsPerWeek: [
      { week: '2026-11-16', type: 'domain', outcome: 'failed', count: 2 },
      { week: '2026-11-09', type: 'email', outcome: 'in_progress', count: 1 },
      { week: '2026-11-09', type: 'domain', outcome: 'taken_down', count: 3 },
      { week: '2026-11-09', type: 'domain', outcome: 'failed', count: 4 },
    ],
  });

  it('stacks by outcome in the outcomes’ order, one row per week, oldest first', () => {
    expect(weeklySeries(data, 'outcome', EN)).toEqual({
      series: ['taken down', 'in progress', 'takedown failed'],
      rows: [
        { label: 'week of 2026-11-09', values: [3, 1, 4] },
        { label: 'week of 2026-11-16', values: [0, 0, 2] },
      ],
    });
  });

  it('stacks by incident type in alphabetical order, adding up the outcomes', () => {
    expect(weeklySeries(data, 'type', EN)).toEqual({
      series: ['domain', 'email'],
      rows: [
        { label: 'week of 2026-11-09', values: [7, 1] },
        { label: 'week of 2026-11-16', values: [2, 0] },
      ],
    });
  });

  it('names outcomes and weeks in French for a French admin', () => {
    const weekly = weeklySeries(data, 'outcome', FR);
    expect(weekly.series).toEqual(['retiré', 'en cours', 'retrait échoué']);
    expect(weekly.rows.map((row) => row.label)).toEqual([
      'semaine du 2026-11-09',
      'semaine du 2026-11-16',
    ]);
  });

  it('counts every incident of the period', () => {
    expect(totalIncidents(data)).toBe(10);
  });
});

describe('durations, rates and notes', () => {
  it('says durations under two days in hours and longer ones in days', () => {
    expect([formatHours(47, EN), formatHours(48, EN), formatHours(120, EN)]).toEqual([
      '47 h',
      '2 d',
      '5 d',
    ]);
    expect(formatHours(36, FR)).toBe('36 h');
    expect(formatHours(84, FR)).toBe('3,5 j');
  });

  it('rounds a rate to a whole percent and has no rate without attempts', () => {
    expect([formatPercent(2 / 3, EN), formatPercent(null, EN), formatPercent(null, FR)]).toEqual([
      '67%',
      'n/a',
      's.o.',
    ]);
  });

  it('notes each registrar with its median, the buckets as series', () => {
    const data = analyticsOf();
    expect(durationSeries(data, data.timeToTakedown.byRegistrar, EN)).toEqual({
      series: ['under 1 day', '1 to 3 days', '3 to 7 days', 'over 7 days'],
      rows: [
        { label: 'Fast Registrar', values: [2, 1, 0, 0], note: 'median 9 h' },
        { label: 'Slow Registrar', values: [0, 0, 1, 0], note: 'median 5 d' },
      ],
    });
    const french = durationSeries(data, data.timeToTakedown.byRegistrar, FR);
    expect(french.series).toEqual([
      'moins d’un jour',
      '1 à 3 jours',
      '3 à 7 jours',
      'plus de 7 jours',
    ]);
    expect(french.rows[1]?.note).toBe('médiane 5 j');
  });

  it('notes each client’s success rate with what it counts', () => {
    expect(successSeries(analyticsOf(), EN)).toEqual({
      series: ['succeeded', 'failed'],
      rows: [
        { label: 'Parent', values: [3, 1], note: '75% of 4' },
        { label: 'Retail', values: [0, 0], note: 'n/a of 0' },
      ],
    });
    expect(successSeries(analyticsOf(), FR).series).toEqual(['réussis', 'échoués']);
  });

  it('shows listed and submitted per blocklist authority', () => {
    expect(blocklistSeries(analyticsOf(), FR)).toEqual({
      series: ['inscrits', 'soumis'],
      rows: [{ label: 'PhishTank', values: [3, 1] }],
    });
  });

  it('notes the credits left: a number, not used, or unknown', () => {
    const data = analyticsOf({
      credits: {
        rows: [
          { clientId: 'cl_a', clientName: 'Parent', remainingCredits: 25, takedownsStarted: 5 },
          { clientId: 'cl_b', clientName: null, remainingCredits: null, takedownsStarted: 0 },
          {
            clientId: 'cl_c',
            clientName: 'Shop',
            remainingCredits: 'unknown',
            takedownsStarted: 2,
          },
        ],
      },
    });
    expect(creditSeries(data, EN).rows.map((row) => [row.label, row.note])).toEqual([
      ['Parent', '5 started, 25 left'],
      ['cl_b', '0 started, not used left'],
      ['Shop', '2 started, unknown left'],
    ]);
    expect(creditSeries(data, FR).rows[2]?.note).toBe('2 lancés, inconnus restants');
  });

  it('shows each waiting incident by its days waiting', () => {
    expect(waitingSeries(analyticsOf(), FR)).toMatchObject({
      series: ['jours d’attente'],
      rows: [{ values: [13], note: '13 j' }],
    });
  });

  it('names a client by its name, or its id when it has none or is unknown', () => {
    const data = analyticsOf({
      clients: [
        { id: 'cl_a', name: 'Parent' },
        { id: 'cl_x', name: null },
      ],
    });
    expect([
      clientNameOf(data, 'cl_a'),
      clientNameOf(data, 'cl_x'),
      clientNameOf(data, 'cl_z'),
    ]).toEqual(['Parent', 'cl_x', 'cl_z']);
  });
});

describe('bar layout', () => {
  const chart = {
    series: ['ok', 'ko'],
    rows: [
      { label: 'a', values: [3, 1] },
      { label: 'b', values: [1, 0], note: 'one' },
    ],
  };

  it('scales the largest total to the bar area and stacks each row’s segments left to right', () => {
    const placed = placeRows(chart, { left: 200, area: 400, rowHeight: 26, top: 4 });
    expect(placed.map((row) => row.y)).toEqual([4, 30]);
    expect(placed[0]!.segments).toEqual([
      { series: 'ok', value: 3, x: 200, width: 300 },
      { series: 'ko', value: 1, x: 500, width: 100 },
    ]);
    expect([placed[0]!.noteX, placed[0]!.noteText]).toEqual([600, '4']);
    expect([placed[1]!.noteX, placed[1]!.noteText]).toEqual([300, 'one']);
  });

  it('draws nothing wide when every value is zero', () => {
    const placed = placeRows(
      { series: ['x'], rows: [{ label: 'z', values: [0] }] },
      { left: 0, area: 100, rowHeight: 10, top: 0 },
    );
    expect(placed[0]!.segments[0]!.width).toBe(0);
  });

  it('sums every row up in one sentence for screen readers', () => {
    expect(textSummary(chart)).toBe('a: 3 ok, 1 ko; b: 1 ok, 0 ko (one)');
  });

  it('cuts a long label with an ellipsis', () => {
    expect(shortLabel('x'.repeat(28))).toBe('x'.repeat(28));
    expect(shortLabel('x'.repeat(29))).toBe(`${'x'.repeat(27)}…`);
  });

  it('colours durations from quick green to the darkest red for the longest', () => {
    expect(durationColors(1)).toEqual(['#038153']);
    expect(durationColors(4)).toEqual(['#038153', '#c38f00', '#ad5918', '#8c232c']);
  });
});
