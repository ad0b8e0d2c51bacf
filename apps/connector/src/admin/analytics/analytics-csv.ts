// Each analytics chart as a CSV download, with cells a spreadsheet cannot read as formulas.
import type { TakedownAnalytics } from '@incident-desk/admin-contract';

export const CSV_CHARTS = [
  'reports-per-week',
  'time-to-takedown',
  'success-rate',
  'blocklist-coverage',
  'credits',
  'waiting-on-customer',
] as const;
export type TCsvChart = (typeof CSV_CHARTS)[number];

/**
 * One CSV cell: text that a spreadsheet would read as a formula (= + - @, tab, carriage return
 * first) gets a leading quote; a cell with a comma, quote or line break is quoted.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = typeof value === 'number' ? String(value) : value;
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function toCsv(rows: (string | number | null)[][]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

const percent = (rate: number | null) => (rate === null ? null : Math.round(rate * 1000) / 10);

export function chartCsv(analytics: TakedownAnalytics, chart: TCsvChart): string {
  switch (chart) {
    case 'reports-per-week':
      return toCsv([
        ['week', 'type', 'outcome', 'incidents'],
        ...analytics.reportsPerWeek.map((r) => [r.week, r.type, r.outcome, r.count]),
      ]);
    case 'time-to-takedown': {
      const { buckets, byRegistrar, byHosting } = analytics.timeToTakedown;
      return toCsv([
        ['group', 'name', 'incidents', 'median hours', ...buckets],
        ...byRegistrar.map((g) => ['registrar', g.name, g.count, g.medianHours, ...g.buckets]),
        ...byHosting.map((g) => ['hosting provider', g.name, g.count, g.medianHours, ...g.buckets]),
      ]);
    }
    case 'success-rate':
      return toCsv([
        ['client id', 'client', 'succeeded', 'failed', 'success rate %', 'counted from'],
        ...analytics.successRate.rows.map((r) => [
          r.clientId,
          r.clientName,
          r.succeeded,
          r.failed,
          percent(r.rate),
          analytics.successRate.basis,
        ]),
      ]);
    case 'blocklist-coverage':
      return toCsv([
        ['authority', 'listed', 'submitted'],
        ...analytics.blocklistCoverage.rows.map((r) => [r.authority, r.listed, r.submitted]),
        ['(incidents read)', analytics.blocklistCoverage.incidents, null],
        ['(incidents with a listing)', analytics.blocklistCoverage.covered, null],
      ]);
    case 'credits':
      return toCsv([
        ['client id', 'client', 'remaining credits', 'takedowns started in the window'],
        ...analytics.credits.rows.map((r) => [
          r.clientId,
          r.clientName,
          r.remainingCredits === null ? 'not used' : r.remainingCredits,
          r.takedownsStarted,
        ]),
      ]);
    case 'waiting-on-customer':
      return toCsv([
        ['client id', 'incident id', 'subject', 'waiting since', 'age (days)', 'ticket'],
        ...analytics.waitingOnCustomer.rows.map((r) => [
          r.clientId,
          r.incidentId,
          r.subject,
          r.since,
          r.ageDays,
          r.ticketId,
        ]),
      ]);
  }
}
