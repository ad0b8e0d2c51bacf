// Takedown analytics for the admin page: the signed-in account's incidents
// of the last weeks, read from the incident service for the account's own clients only, joined
// with the connector's own records (report attempts, links to tickets). The reads are bounded: a
// window of weeks, a cap on incidents per client, a cap on per-incident reads (cached, a few at a
// time), and a short cache of the whole answer. A part the service did not answer is named in
// `partial`; what could be read is still shown.
// The parts: each client's reads (analytics-client-reads.ts), the connector's records
// (analytics-records.ts), the answer (analytics-aggregate.ts) and its CSV (analytics-csv.ts).
import type { TakedownAnalytics } from '@incident-desk/admin-contract';
import type { TDatabase } from '@incident-desk/db';
import type { IncidentClient, TDetailedIncident, TIncident } from '@incident-desk/incident-api';
import { aggregateAnalytics, weekOf, type ClientReads } from './analytics-aggregate';
import { readClient, type AnalyticsClient } from './analytics-client-reads';
import { readConnectorRecords } from './analytics-records';

const ANALYTICS_LIMITS = {
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
  client(clientId: string): AnalyticsClient;
}

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
      const { read, detailReads } = await readClient({
        client,
        clientId,
        fromDate,
        limits: this.limits,
        detailBudget,
        detail: (incident) => this.detail(client, clientId, incident),
        partial,
      });
      reads.push(read);
      detailBudget -= detailReads;
    }

    const waiting = reads.flatMap((r) => r.waiting.map((i) => i.id));
    const records = await readConnectorRecords(
      this.db,
      source.accountId,
      fromDate,
      waiting,
      clientFilter,
    );
    return aggregateAnalytics({
      now,
      fromDate,
      weeks: this.limits.weeks,
      clientFilter,
      clients: reads,
      records,
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
