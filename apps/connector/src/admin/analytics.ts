// Takedown analytics for the admin page: the signed-in account's incidents
// of the last weeks, read from the incident service for the account's own clients only, joined
// with the connector's own records (report attempts, links to tickets). The reads are bounded: a
// window of weeks, a cap on incidents per client, a cap on per-incident reads (cached, a few at a
// time), and a short cache of the whole answer. A part the service did not answer is named in
// `partial`; what could be read is still shown.
import {
  OUTCOMES,
  TAKEDOWN_BUCKETS,
  type DurationGroup,
  type TakedownAnalytics,
  type TOutcome,
} from '@incident-desk/admin-contract';
import type { TDatabase } from '@incident-desk/db';
import {
  ResolutionsForbiddenError,
  type IncidentClient,
  type TDetailedIncident,
  type TIncident,
  type TRemainingCredits,
  type TTakedownAttempts,
} from '@incident-desk/incident-api';
import { defang } from '@incident-desk/threat-text';

export const ANALYTICS_LIMITS = {
  /** Weeks back from now, this week included. */
  weeks: 12,
  /** Incidents read per client in the window (newest first). */
  incidentsPerClient: 300,
  /** Per-incident detail reads per answer (registrar, hosting, blocklists). */
  detailReads: 120,
  /** Detail reads in flight at once. */
  detailConcurrency: 4,
  /** A detail is read again after this long even when its incident did not change. */
  detailTtlMs: 10 * 60_000,
  /** The whole answer per account and client filter. */
  answerTtlMs: 60_000,
  /** Incidents waiting on the customer listed per client. */
  waiting: 100,
} as const;

export type AnalyticsLimits = { -readonly [K in keyof typeof ANALYTICS_LIMITS]: number };

/** What the analytics read of the service: the account's own client ids and their clients. */
export interface AnalyticsSource {
  accountId: string;
  clientIds: string[];
  client(clientId: string): Pick<IncidentClient, 'incidents' | 'resolutions' | 'usage'>;
}

export type { TakedownAnalytics };

// ---------------------------------------------------------------------------------------------
// Pure aggregation

export interface ClientReads {
  clientId: string;
  clientName: string | null;
  incidents: TIncident[];
  /** null: attempts not readable (the service refused or failed). */
  attempts: TTakedownAttempts[] | null;
  details: Map<string, TDetailedIncident>;
  remainingCredits: TRemainingCredits | 'unknown';
  waiting: TIncident[];
}

export interface ConnectorRecords {
  /** Reports that never became an incident (failed, or a duplicate of another's). */
  failedReports: { at: Date }[];
  /** incident id or report reference → ticket id */
  ticketOf: Map<string, number>;
}

export function weekOf(date: Date): string {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  day.setUTCDate(day.getUTCDate() - sinceMonday);
  return day.toISOString().slice(0, 10);
}

export function outcomeOf(status: string): TOutcome {
  switch (status) {
    case 'takedown_success':
      return 'taken_down';
    case 'takedown_attempt_failed':
      return 'failed';
    case 'action_required':
      return 'waiting_on_customer';
    case 'blocklisted':
      return 'blocklisted';
    case 'closed':
      return 'closed';
    default:
      return 'in_progress';
  }
}

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function bucketOf(hours: number): number {
  if (hours < 24) return 0;
  if (hours < 72) return 1;
  if (hours < 168) return 2;
  return 3;
}

function durationGroup(name: string, hours: number[]): DurationGroup {
  const buckets = TAKEDOWN_BUCKETS.map(() => 0);
  for (const h of hours) buckets[bucketOf(h)]! += 1;
  return { name, count: hours.length, medianHours: Math.round(median(hours) * 10) / 10, buckets };
}

const byCountThenName = (a: { name: string; count: number }, b: { name: string; count: number }) =>
  b.count - a.count || a.name.localeCompare(b.name);

/** The time an incident was taken down: its takedown timestamp, else a successful attempt's end. */
function takedownAt(incident: TIncident, attempts: TTakedownAttempts | undefined): number | null {
  if (incident.takedownTimestamp) return Date.parse(incident.takedownTimestamp);
  const success = attempts?.takedownAttempts.find((a) => a.outcome === 'success' && a.resolvedAt);
  return success?.resolvedAt ? Date.parse(success.resolvedAt) : null;
}

export function aggregateAnalytics(input: {
  now: Date;
  fromDate: Date;
  weeks: number;
  clientFilter: string | null;
  clients: ClientReads[];
  records: ConnectorRecords;
  partial: TakedownAnalytics['partial'];
}): TakedownAnalytics {
  const { now, clients, records } = input;
  const reports = new Map<string, number>();
  const count = (week: string, type: string, outcome: TOutcome) => {
    const key = JSON.stringify([week, type, outcome]);
    reports.set(key, (reports.get(key) ?? 0) + 1);
  };
  const registrarHours = new Map<string, number[]>();
  const hostingHours = new Map<string, number[]>();
  const allHours: number[] = [];
  const authorities = new Map<string, { listed: number; submitted: number }>();
  let detailed = 0;
  let covered = 0;
  const basis = clients.every((c) => c.attempts !== null) ? 'attempts' : 'statuses';
  const successRows: TakedownAnalytics['successRate']['rows'] = [];
  const creditRows: TakedownAnalytics['credits']['rows'] = [];
  const waitingRows: TakedownAnalytics['waitingOnCustomer']['rows'] = [];

  for (const client of clients) {
    const attemptsOf = new Map((client.attempts ?? []).map((a) => [a.id, a]));
    let succeeded = 0;
    let failed = 0;
    let started = 0;
    for (const incident of client.incidents) {
      const reportedAt = Date.parse(incident.timestamp);
      if (Number.isNaN(reportedAt)) continue;
      count(weekOf(new Date(reportedAt)), incident.incidentType, outcomeOf(incident.status));
      const attempts = attemptsOf.get(incident.id);
      if (basis === 'statuses') {
        if (incident.status === 'takedown_success') succeeded += 1;
        if (incident.status === 'takedown_attempt_failed') failed += 1;
      }
      const detail = client.details.get(incident.id);
      const takenDown = takedownAt(incident, attempts);
      if (takenDown !== null && takenDown >= reportedAt) {
        const hours = (takenDown - reportedAt) / 3_600_000;
        allHours.push(hours);
        const registrar = detail?.registrar?.name?.trim() || 'Unknown';
        const hosting = detail?.hostingProvider?.trim() || 'Unknown';
        registrarHours.set(registrar, [...(registrarHours.get(registrar) ?? []), hours]);
        hostingHours.set(hosting, [...(hostingHours.get(hosting) ?? []), hours]);
      }
      if (detail) {
        detailed += 1;
        if (detail.blocklists.length > 0) covered += 1;
        for (const listing of detail.blocklists) {
          const entry = authorities.get(listing.authority) ?? { listed: 0, submitted: 0 };
          if (listing.status === 'listed') entry.listed += 1;
          else entry.submitted += 1;
          authorities.set(listing.authority, entry);
        }
      }
    }
    for (const record of client.attempts ?? []) {
      for (const attempt of record.takedownAttempts) {
        if (attempt.startedAt && Date.parse(attempt.startedAt) >= input.fromDate.getTime())
          started += 1;
        if (basis !== 'attempts' || attempt.outcome === null) continue;
        if (attempt.outcome === 'success') succeeded += 1;
        else if (attempt.outcome === 'failed' || attempt.outcome === 'not_actionable') failed += 1;
      }
    }
    successRows.push({
      clientId: client.clientId,
      clientName: client.clientName,
      succeeded,
      failed,
      rate: succeeded + failed === 0 ? null : succeeded / (succeeded + failed),
    });
    creditRows.push({
      clientId: client.clientId,
      clientName: client.clientName,
      remainingCredits: client.remainingCredits,
      takedownsStarted: started,
    });
    for (const incident of client.waiting) {
      const since = incident.lastHistoryUpdateTimestamp ?? incident.timestamp;
      const sinceMs = Date.parse(since);
      waitingRows.push({
        clientId: client.clientId,
        incidentId: incident.id,
        subject: defang(incident.subject ?? incident.url ?? incident.domain ?? incident.id),
        since,
        ageDays: Number.isNaN(sinceMs)
          ? 0
          : Math.max(0, Math.floor((now.getTime() - sinceMs) / 86_400_000)),
        ticketId: records.ticketOf.get(incident.id) ?? null,
      });
    }
  }
  for (const report of records.failedReports) {
    if (report.at.getTime() >= input.fromDate.getTime())
      count(weekOf(report.at), 'not reported', 'report_failed');
  }

  const reportsPerWeek = [...reports]
    .map(([key, n]) => {
      const [week, type, outcome] = JSON.parse(key) as [string, string, TOutcome];
      return { week, type, outcome, count: n };
    })
    .sort(
      (a, b) =>
        a.week.localeCompare(b.week) ||
        a.type.localeCompare(b.type) ||
        OUTCOMES.indexOf(a.outcome) - OUTCOMES.indexOf(b.outcome),
    );
  waitingRows.sort((a, b) => b.ageDays - a.ageDays || a.incidentId.localeCompare(b.incidentId));
  return {
    generatedAt: now.toISOString(),
    fromDate: input.fromDate.toISOString(),
    weeks: input.weeks,
    clientFilter: input.clientFilter,
    clients: clients.map((c) => ({ id: c.clientId, name: c.clientName })),
    partial: input.partial,
    reportsPerWeek,
    timeToTakedown: {
      buckets: TAKEDOWN_BUCKETS,
      overall: allHours.length ? durationGroup('All', allHours) : null,
      byRegistrar: [...registrarHours].map(([n, h]) => durationGroup(n, h)).sort(byCountThenName),
      byHosting: [...hostingHours].map(([n, h]) => durationGroup(n, h)).sort(byCountThenName),
    },
    successRate: { basis, rows: successRows },
    blocklistCoverage: {
      incidents: detailed,
      covered,
      rate: detailed === 0 ? null : covered / detailed,
      rows: [...authorities]
        .map(([authority, n]) => ({ authority, ...n }))
        .sort((a, b) => b.listed + b.submitted - (a.listed + a.submitted)),
    },
    credits: { rows: creditRows },
    waitingOnCustomer: { rows: waitingRows },
  };
}

// ---------------------------------------------------------------------------------------------
// Reading, bounded

/** Runs `work` over `items`, at most `limit` at a time. */
export async function mapLimited<T, R>(
  items: T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(runners);
  return results;
}

const messageOf = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 300) : 'unknown error';

export class AnalyticsService {
  private readonly details = new Map<
    string,
    { at: number; version: string; value: TDetailedIncident }
  >();
  private readonly answers = new Map<string, { at: number; value: TakedownAnalytics }>();
  readonly limits: AnalyticsLimits;

  constructor(
    private readonly db: TDatabase,
    private readonly now: () => number,
    limits: Partial<AnalyticsLimits> = {},
  ) {
    this.limits = { ...ANALYTICS_LIMITS, ...limits };
  }

  /** The account's analytics, for one of its clients or all; cached for a short while. */
  async forAccount(
    source: AnalyticsSource,
    clientFilter: string | null,
  ): Promise<TakedownAnalytics> {
    // the clients are in the key: a changed incident connection is not answered from the cache
    const key = [source.accountId, clientFilter ?? '', ...source.clientIds].join('\u0000');
    const cached = this.answers.get(key);
    const nowMs = this.now();
    if (cached && nowMs - cached.at < this.limits.answerTtlMs) return cached.value;
    const value = await this.compute(source, clientFilter);
    this.answers.set(key, { at: nowMs, value });
    if (this.answers.size > 1000) this.answers.delete(this.answers.keys().next().value!);
    return value;
  }

  private async compute(
    source: AnalyticsSource,
    clientFilter: string | null,
  ): Promise<TakedownAnalytics> {
    const now = new Date(this.now());
    const thisWeek = new Date(`${weekOf(now)}T00:00:00.000Z`);
    const fromDate = new Date(thisWeek.getTime() - (this.limits.weeks - 1) * 7 * 86_400_000);
    const clientIds = clientFilter ? [clientFilter] : source.clientIds;
    const partial: TakedownAnalytics['partial'] = [];
    let detailBudget = this.limits.detailReads;

    const reads: ClientReads[] = [];
    for (const clientId of clientIds) {
      const client = source.client(clientId);
      const read: ClientReads = {
        clientId,
        clientName: null,
        incidents: [],
        attempts: null,
        details: new Map(),
        remainingCredits: 'unknown',
        waiting: [],
      };
      reads.push(read);
      try {
        const usage = await client.usage.retrieve({}, { timeoutMs: 10_000 });
        read.clientName = usage.clientName;
        read.remainingCredits = usage.remainingCredits;
      } catch (error) {
        partial.push({ clientId, part: 'credits', message: messageOf(error) });
      }
      try {
        for await (const incident of client.incidents.list(
          { fromDate: fromDate.toISOString(), limit: 100 },
          { timeoutMs: 15_000 },
        )) {
          read.incidents.push(incident);
          if (read.incidents.length >= this.limits.incidentsPerClient) {
            partial.push({
              clientId,
              part: 'incidents',
              message: `only the newest ${this.limits.incidentsPerClient} incidents are counted`,
            });
            break;
          }
        }
      } catch (error) {
        partial.push({ clientId, part: 'incidents', message: messageOf(error) });
      }
      try {
        const attempts: TTakedownAttempts[] = [];
        for await (const record of client.resolutions.list(
          { fromDate: fromDate.toISOString(), limit: 100 },
          { timeoutMs: 15_000 },
        )) {
          attempts.push(record);
          if (attempts.length >= this.limits.incidentsPerClient) break;
        }
        read.attempts = attempts;
      } catch (error) {
        partial.push({
          clientId,
          part: 'takedown attempts',
          message:
            error instanceof ResolutionsForbiddenError
              ? 'the service does not show takedown attempts for this client; the success rate counts current statuses'
              : messageOf(error),
        });
      }
      try {
        for await (const incident of client.incidents.list(
          { status: 'action_required', limit: 100 },
          { timeoutMs: 15_000 },
        )) {
          read.waiting.push(incident);
          if (read.waiting.length >= this.limits.waiting) break;
        }
      } catch (error) {
        partial.push({ clientId, part: 'waiting on the customer', message: messageOf(error) });
      }
      const wanted = read.incidents.slice(0, Math.max(0, detailBudget));
      detailBudget -= wanted.length;
      if (wanted.length < read.incidents.length) {
        partial.push({
          clientId,
          part: 'registrar, hosting and blocklists',
          message: `read for the newest ${wanted.length} of ${read.incidents.length} incidents`,
        });
      }
      let failures = 0;
      let lastFailure = '';
      await mapLimited(wanted, this.limits.detailConcurrency, async (incident) => {
        try {
          read.details.set(incident.id, await this.detail(client, clientId, incident));
        } catch (error) {
          failures += 1;
          lastFailure = messageOf(error);
        }
      });
      if (failures > 0) {
        partial.push({
          clientId,
          part: 'registrar, hosting and blocklists',
          message: `${failures} of ${wanted.length} incidents could not be read (${lastFailure})`,
        });
      }
    }

    const [attempts, links] = await Promise.all([
      this.db.prisma.reportAttempt.findMany({
        where: {
          accountId: source.accountId,
          state: { in: ['failed', 'duplicate'] },
          startedAt: { gte: fromDate },
        },
        select: { startedAt: true },
        take: 10_000,
      }),
      this.db.prisma.incidentLink.findMany({
        where: {
          accountId: source.accountId,
          OR: [
            { incidentId: { in: reads.flatMap((r) => r.waiting.map((i) => i.id)) } },
            { reportRef: { in: reads.flatMap((r) => r.waiting.map((i) => i.id)) } },
          ],
        },
        select: { incidentId: true, reportRef: true, ticketId: true },
      }),
    ]);
    const ticketOf = new Map<string, number>();
    for (const link of links) {
      ticketOf.set(link.incidentId, Number(link.ticketId));
      if (link.reportRef) ticketOf.set(link.reportRef, Number(link.ticketId));
    }
    return aggregateAnalytics({
      now,
      fromDate,
      weeks: this.limits.weeks,
      clientFilter,
      clients: reads,
      // Failed reports belong to the account, not to one client: shown without a client filter.
      records: {
        failedReports: clientFilter ? [] : attempts.map((a) => ({ at: a.startedAt })),
        ticketOf,
      },
      partial,
    });
  }

  private async detail(
    client: Pick<IncidentClient, 'incidents'>,
    clientId: string,
    incident: TIncident,
  ): Promise<TDetailedIncident> {
    const key = `${clientId}\u0000${incident.id}`;
    const version = `${incident.status}|${incident.lastHistoryUpdateTimestamp ?? ''}`;
    const cached = this.details.get(key);
    const nowMs = this.now();
    if (cached && cached.version === version && nowMs - cached.at < this.limits.detailTtlMs)
      return cached.value;
    const value = await client.incidents.retrieve(incident.id, { timeoutMs: 10_000 });
    this.details.set(key, { at: nowMs, version, value });
    if (this.details.size > 20_000) this.details.delete(this.details.keys().next().value!);
    return value;
  }
}

// ---------------------------------------------------------------------------------------------
// CSV

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

export function toCsv(rows: (string | number | null)[][]): string {
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
