// The analytics answer shaped into chart series and bars, in the admin's language: no drawing
// here, only which bars, stacked how, labelled and noted with what.
import { OUTCOMES } from '@incident-desk/admin-contract';
import type { Analytics } from './api';
import type { BarRow, ChartData } from './chart-model';
import type { Messages } from './i18n/en';

type Texts = Messages['analytics'];
export type StackBy = 'outcome' | 'type';

/** Under two days in hours, longer in days to one decimal: "20 h", "5 d". */
/** Where an outcome stacks in the weekly chart: in the contract's order. */
const outcomeRank = (outcome: string) => (OUTCOMES as readonly string[]).indexOf(outcome);

export const formatHours = (h: number, t: Texts) =>
  h < 48 ? t.hours(h) : t.days(Math.round((h / 24) * 10) / 10);

export const formatPercent = (rate: number | null, t: Texts) =>
  rate === null ? t.notApplicable : `${Math.round(rate * 100)}%`;

export const clientNameOf = (data: Analytics, clientId: string) =>
  data.clients.find((c) => c.id === clientId)?.name ?? clientId;

/** Rows per week (oldest first), stacked by outcome (in the outcomes' order) or incident type. */
export function weeklySeries(data: Analytics, by: StackBy, t: Texts): ChartData {
  const keyOf = (r: Analytics['reportsPerWeek'][number]) => (by === 'outcome' ? r.outcome : r.type);
  const keys = [
    ...new Set(
      data.reportsPerWeek
        .map(keyOf)
        .sort((a, b) => (by === 'outcome' ? outcomeRank(a) - outcomeRank(b) : a.localeCompare(b))),
    ),
  ];
  const weeks = [...new Set(data.reportsPerWeek.map((r) => r.week))].sort();
  const rows: BarRow[] = weeks.map((week) => ({
    label: t.weekOf(week),
    values: keys.map((key) =>
      data.reportsPerWeek
        .filter((r) => r.week === week && keyOf(r) === key)
        .reduce((sum, r) => sum + r.count, 0),
    ),
  }));
  return { series: by === 'outcome' ? keys.map((k) => t.outcome[k] ?? k) : keys, rows };
}

export const totalIncidents = (data: Analytics) =>
  data.reportsPerWeek.reduce((sum, r) => sum + r.count, 0);

/** One row per registrar or hosting provider: takedowns per duration bucket, noted with the median. */
export function durationSeries(
  data: Analytics,
  groups: Analytics['timeToTakedown']['byRegistrar'],
  t: Texts,
): ChartData {
  return {
    series: data.timeToTakedown.buckets.map((bucket) => t.bucket[bucket] ?? bucket),
    rows: groups.map((g) => ({
      label: g.name,
      values: g.buckets,
      note: t.median(formatHours(g.medianHours, t)),
    })),
  };
}

/** Succeeded and failed per client, noted with the rate and what it counts. */
export function successSeries(data: Analytics, t: Texts): ChartData {
  return {
    series: [t.succeeded, t.failed],
    rows: data.successRate.rows.map((r) => ({
      label: r.clientName ?? r.clientId,
      values: [r.succeeded, r.failed],
      note: t.rateOf(formatPercent(r.rate, t), r.succeeded + r.failed),
    })),
  };
}

export function blocklistSeries(data: Analytics, t: Texts): ChartData {
  return {
    series: [t.listed, t.submitted],
    rows: data.blocklistCoverage.rows.map((r) => ({
      label: r.authority,
      values: [r.listed, r.submitted],
    })),
  };
}

function creditsLeft(value: Analytics['credits']['rows'][number]['remainingCredits'], t: Texts) {
  if (value === null) return t.creditsNotUsed;
  return value === 'unknown' ? t.creditsUnknown : String(value);
}

export function creditSeries(data: Analytics, t: Texts): ChartData {
  return {
    series: [t.takedownsStarted],
    rows: data.credits.rows.map((r) => ({
      label: r.clientName ?? r.clientId,
      values: [r.takedownsStarted],
      note: t.creditsNote(r.takedownsStarted, creditsLeft(r.remainingCredits, t)),
    })),
  };
}

export function waitingSeries(data: Analytics, t: Texts): ChartData {
  return {
    series: [t.daysWaiting],
    rows: data.waitingOnCustomer.rows.map((r) => ({
      label: r.subject,
      values: [r.ageDays],
      note: t.days(r.ageDays),
    })),
  };
}
