// The analytics answer from what was read: pure, one function per chart over the clients' reads
// and the connector's own records.
import {
  OUTCOMES,
  TAKEDOWN_BUCKETS,
  type DurationGroup,
  type TakedownAnalytics,
  type TOutcome,
} from '@incident-desk/admin-contract';
import type {
  TDetailedIncident,
  TIncident,
  TRemainingCredits,
  TTakedownAttempts,
} from '@incident-desk/incident-api';
import { defang } from '@incident-desk/threat-text';

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

export interface AnalyticsInput {
  now: Date;
  fromDate: Date;
  weeks: number;
  clientFilter: string | null;
  clients: ClientReads[];
  records: ConnectorRecords;
  partial: TakedownAnalytics['partial'];
}

export function weekOf(date: Date): string {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  day.setUTCDate(day.getUTCDate() - sinceMonday);
  return day.toISOString().slice(0, 10);
}

function outcomeOf(status: string): TOutcome {
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

/** The client's incidents with a readable timestamp (the others are counted nowhere). */
function datedIncidents(client: ClientReads): { incident: TIncident; reportedAt: number }[] {
  return client.incidents
    .map((incident) => ({ incident, reportedAt: Date.parse(incident.timestamp) }))
    .filter(({ reportedAt }) => !Number.isNaN(reportedAt));
}

/** Attempts are the basis only when every client's could be read; else the current statuses. */
function successBasis(clients: ClientReads[]): TakedownAnalytics['successRate']['basis'] {
  return clients.every((c) => c.attempts !== null) ? 'attempts' : 'statuses';
}

function reportsPerWeek(input: AnalyticsInput): TakedownAnalytics['reportsPerWeek'] {
  const reports = new Map<string, number>();
  const count = (week: string, type: string, outcome: TOutcome) => {
    const key = JSON.stringify([week, type, outcome]);
    reports.set(key, (reports.get(key) ?? 0) + 1);
  };
  for (const client of input.clients)
    for (const { incident, reportedAt } of datedIncidents(client))
      count(weekOf(new Date(reportedAt)), incident.incidentType, outcomeOf(incident.status));
  for (const report of input.records.failedReports) {
    if (report.at.getTime() >= input.fromDate.getTime())
      count(weekOf(report.at), 'not reported', 'report_failed');
  }
  return [...reports]
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
}

function timeToTakedown(clients: ClientReads[]): TakedownAnalytics['timeToTakedown'] {
  const registrarHours = new Map<string, number[]>();
  const hostingHours = new Map<string, number[]>();
  const allHours: number[] = [];
  for (const client of clients) {
    const attemptsOf = new Map((client.attempts ?? []).map((a) => [a.id, a]));
    for (const { incident, reportedAt } of datedIncidents(client)) {
      const takenDown = takedownAt(incident, attemptsOf.get(incident.id));
      // an unreadable takedown time (NaN) is not counted either
      if (takenDown === null || !(takenDown >= reportedAt)) continue;
      const hours = (takenDown - reportedAt) / 3_600_000;
      const detail = client.details.get(incident.id);
      allHours.push(hours);
      const registrar = detail?.registrar?.name?.trim() || 'Unknown';
      const hosting = detail?.hostingProvider?.trim() || 'Unknown';
      registrarHours.set(registrar, [...(registrarHours.get(registrar) ?? []), hours]);
      hostingHours.set(hosting, [...(hostingHours.get(hosting) ?? []), hours]);
    }
  }
  return {
    buckets: TAKEDOWN_BUCKETS,
    overall: allHours.length ? durationGroup('All', allHours) : null,
    byRegistrar: [...registrarHours].map(([n, h]) => durationGroup(n, h)).sort(byCountThenName),
    byHosting: [...hostingHours].map(([n, h]) => durationGroup(n, h)).sort(byCountThenName),
  };
}

function successRate(clients: ClientReads[]): TakedownAnalytics['successRate'] {
  const basis = successBasis(clients);
  const rows = clients.map((client) => {
    let succeeded = 0;
    let failed = 0;
    if (basis === 'statuses') {
      for (const { incident } of datedIncidents(client)) {
        if (incident.status === 'takedown_success') succeeded += 1;
        if (incident.status === 'takedown_attempt_failed') failed += 1;
      }
    } else {
      for (const record of client.attempts ?? [])
        for (const attempt of record.takedownAttempts) {
          if (attempt.outcome === 'success') succeeded += 1;
          else if (attempt.outcome === 'failed' || attempt.outcome === 'not_actionable')
            failed += 1;
        }
    }
    return {
      clientId: client.clientId,
      clientName: client.clientName,
      succeeded,
      failed,
      rate: succeeded + failed === 0 ? null : succeeded / (succeeded + failed),
    };
  });
  return { basis, rows };
}

function blocklistCoverage(clients: ClientReads[]): TakedownAnalytics['blocklistCoverage'] {
  const authorities = new Map<string, { listed: number; submitted: number }>();
  let detailed = 0;
  let covered = 0;
  for (const client of clients)
    for (const { incident } of datedIncidents(client)) {
      const detail = client.details.get(incident.id);
      if (!detail) continue;
      detailed += 1;
      if (detail.blocklists.length > 0) covered += 1;
      for (const listing of detail.blocklists) {
        const entry = authorities.get(listing.authority) ?? { listed: 0, submitted: 0 };
        if (listing.status === 'listed') entry.listed += 1;
        else entry.submitted += 1;
        authorities.set(listing.authority, entry);
      }
    }
  return {
    incidents: detailed,
    covered,
    rate: detailed === 0 ? null : covered / detailed,
    rows: [...authorities]
      .map(([authority, n]) => ({ authority, ...n }))
      .sort((a, b) => b.listed + b.submitted - (a.listed + a.submitted)),
  };
}

function credits(clients: ClientReads[], fromDate: Date): TakedownAnalytics['credits'] {
  const rows = clients.map((client) => {
    let started = 0;
    for (const record of client.attempts ?? [])
      for (const attempt of record.takedownAttempts)
        if (attempt.startedAt && Date.parse(attempt.startedAt) >= fromDate.getTime()) started += 1;
    return {
      clientId: client.clientId,
      clientName: client.clientName,
      remainingCredits: client.remainingCredits,
      takedownsStarted: started,
    };
  });
  return { rows };
}

function waitingOnCustomer(input: AnalyticsInput): TakedownAnalytics['waitingOnCustomer'] {
  const rows = input.clients.flatMap((client) =>
    client.waiting.map((incident) => {
      const since = incident.lastHistoryUpdateTimestamp ?? incident.timestamp;
      const sinceMs = Date.parse(since);
      return {
        clientId: client.clientId,
        incidentId: incident.id,
        subject: defang(incident.subject ?? incident.url ?? incident.domain ?? incident.id),
        since,
        ageDays: Number.isNaN(sinceMs)
          ? 0
          : Math.max(0, Math.floor((input.now.getTime() - sinceMs) / 86_400_000)),
        ticketId: input.records.ticketOf.get(incident.id) ?? null,
      };
    }),
  );
  rows.sort((a, b) => b.ageDays - a.ageDays || a.incidentId.localeCompare(b.incidentId));
  return { rows };
}

export function aggregateAnalytics(input: AnalyticsInput): TakedownAnalytics {
  return {
    generatedAt: input.now.toISOString(),
    fromDate: input.fromDate.toISOString(),
    weeks: input.weeks,
    clientFilter: input.clientFilter,
    clients: input.clients.map((c) => ({ id: c.clientId, name: c.clientName })),
    partial: input.partial,
    reportsPerWeek: reportsPerWeek(input),
    timeToTakedown: timeToTakedown(input.clients),
    successRate: successRate(input.clients),
    blocklistCoverage: blocklistCoverage(input.clients),
    credits: credits(input.clients, input.fromDate),
    waitingOnCustomer: waitingOnCustomer(input),
  };
}
