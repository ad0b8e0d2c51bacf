// The admin page's takedown analytics: the aggregation over the incident sandbox (seeded with twelve
// weeks of history) and the connector's own records, an empty account, a service that fails, one
// account's records never counted for another, the bounds on per-incident reads, and CSV cells
// that a spreadsheet cannot read as formulas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIncidentClient, type IncidentClient } from '@incident-desk/incident-api';
import {
  createIncidentSandbox,
  DEMO_API_KEY,
  DEMO_BANK_CLIENT_ID,
  DEMO_PARENT_CLIENT_ID,
  DEMO_RETAIL_CLIENT_ID,
  type IncidentSandbox,
  type ListeningSandbox,
} from '@incident-desk/incident-sandbox';
import type { TDatabase } from '@incident-desk/db';
import type { TakedownAnalytics } from '@incident-desk/admin-contract';
import { AnalyticsService, type AnalyticsSource } from '../src/admin/analytics/analytics';
import { median, weekOf } from '../src/admin/analytics/analytics-aggregate';
import { mapLimited } from '../src/admin/analytics/analytics-client-reads';
import { chartCsv, csvCell } from '../src/admin/analytics/analytics-csv';
import { backends, openTestDatabase } from './support/test-database';

const CLIENTS = [DEMO_PARENT_CLIENT_ID, DEMO_RETAIL_CLIENT_ID, DEMO_BANK_CLIENT_ID];

describe('analytics helpers', () => {
  it('weeks start on Monday (UTC)', () => {
    expect(weekOf(new Date('2026-11-23T20:00:00Z'))).toBe('2026-11-23'); // a Monday
    expect(weekOf(new Date('2026-11-29T23:59:59Z'))).toBe('2026-11-23'); // its Sunday
    expect(weekOf(new Date('2026-11-22T10:00:00Z'))).toBe('2026-11-16');
  });

  it('median of odd, even and no values', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
  });

  it('CSV cells: formulas neutralised, separators quoted, numbers kept', () => {
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe(
      '"\'=HYPERLINK(""http://evil.example"",""x"")"',
    );
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(null)).toBe('');
  });

  it('runs at most the given number of reads at once, keeping the order of results', async () => {
    let inFlight = 0;
    let most = 0;
    const results = await mapLimited([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      return n * 10;
    });
    expect(results).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(most).toBe(3);
  });
});

describe.each(backends)('analytics over the sandbox and the connector records (%s)', (backend) => {
  let db: TDatabase & { dispose(): Promise<void> };
  let sandbox: IncidentSandbox;
  let listening: ListeningSandbox;
  let accountA: string;
  let accountB: string;
  const now = () => Date.now();
  let retrieves = 0;

  const clientOf = (clientId: string): IncidentClient =>
    createIncidentClient({
      baseURL: listening.url,
      apiKey: DEMO_API_KEY,
      clientId,
      retry: { maxRetries: 0 },
      fetch: (input, init) => {
        if (String(input).includes('/v1/incident/')) retrieves += 1;
        return fetch(input, init);
      },
    });
  const sourceOf = (accountId: string, clientIds = CLIENTS): AnalyticsSource => ({
    accountId,
    clientIds,
    client: clientOf,
  });

  beforeAll(async () => {
    db = await openTestDatabase(backend);
    sandbox = createIncidentSandbox({ seedHistory: true, webhookDelayMs: 5 });
    listening = await sandbox.listen(0);
    accountA = (await db.prisma.account.create({ data: { zendeskSubdomain: 'acme' } })).id;
    accountB = (await db.prisma.account.create({ data: { zendeskSubdomain: 'globex' } })).id;
    // B's records: failed reports and a link to one of the waiting incidents
    const waiting = sandbox.store.state.incidents.find(
      (i) => i.status === 'action_required' && i.clientId === DEMO_PARENT_CLIENT_ID,
    )!;
    await db.prisma.reportAttempt.createMany({
      data: [1, 2, 3].map((n) => ({
        accountId: accountB,
        ticketId: BigInt(n),
        mode: 'takedown',
        state: 'failed' as const,
        startedAt: new Date(),
      })),
    });
    await db.prisma.incidentLink.create({
      data: { accountId: accountB, incidentId: waiting.id, ticketId: 77n },
    });
    // A's own: one failed report and a link to the same incident under its own ticket
    await db.prisma.reportAttempt.create({
      data: {
        accountId: accountA,
        ticketId: 9n,
        mode: 'takedown',
        state: 'failed',
        startedAt: new Date(),
      },
    });
    await db.prisma.incidentLink.create({
      data: { accountId: accountA, incidentId: waiting.id, ticketId: 9n },
    });
  });
  afterAll(async () => {
    await sandbox?.close();
    await db?.dispose();
  });

  let full: TakedownAnalytics;

  it('draws every chart from the seeded history, per week, registrar and hosting provider', async () => {
    const service = new AnalyticsService(db, now);
    full = await service.forAccount(sourceOf(accountA), null);
    expect(full.partial).toEqual([]);
    expect(full.clients.map((c) => c.name)).toEqual(['Demo Parent Co', 'Demo Retail', 'Demo Bank']);
    const weeks = new Set(full.reportsPerWeek.map((r) => r.week));
    expect(weeks.size).toBeGreaterThanOrEqual(10);
    const total = full.reportsPerWeek.reduce((sum, r) => sum + r.count, 0);
    const inWindow = sandbox.store.state.incidents.filter(
      (i) => Date.parse(i.timestamp) >= Date.parse(full.fromDate),
    ).length;
    // every incident of the window, plus A's one failed report (not B's three)
    expect(total).toBe(inWindow + 1);
    expect(full.reportsPerWeek.filter((r) => r.outcome === 'report_failed')).toEqual([
      { week: weekOf(new Date()), type: 'not reported', outcome: 'report_failed', count: 1 },
    ]);
    expect(full.reportsPerWeek.some((r) => r.outcome === 'taken_down')).toBe(true);
    const registrars = full.timeToTakedown.byRegistrar.map((g) => g.name);
    expect(registrars).toEqual(
      expect.arrayContaining(['Example Registrar LLC', 'FastDomains Inc.', 'Offshore Names Ltd']),
    );
    const offshore = full.timeToTakedown.byRegistrar.find((g) => g.name === 'Offshore Names Ltd')!;
    const fast = full.timeToTakedown.byRegistrar.find((g) => g.name === 'FastDomains Inc.')!;
    expect(offshore.medianHours).toBeGreaterThan(fast.medianHours);
    expect(offshore.buckets.reduce((a, b) => a + b, 0)).toBe(offshore.count);
    expect(full.timeToTakedown.byHosting.length).toBeGreaterThanOrEqual(3);
    expect(full.successRate.basis).toBe('attempts');
    const parent = full.successRate.rows.find((r) => r.clientId === DEMO_PARENT_CLIENT_ID)!;
    expect(parent.succeeded).toBeGreaterThan(0);
    expect(parent.failed).toBeGreaterThan(0);
    expect(parent.rate).toBeCloseTo(parent.succeeded / (parent.succeeded + parent.failed));
    expect(full.blocklistCoverage.covered).toBeGreaterThan(0);
    expect(full.blocklistCoverage.covered).toBeLessThan(full.blocklistCoverage.incidents);
    expect(full.blocklistCoverage.rows.map((r) => r.authority)).toContain('PhishTank');
    expect(full.credits.rows.map((r) => r.remainingCredits)).toEqual([25, 'unlimited', null]);
    expect(full.credits.rows[0]!.takedownsStarted).toBeGreaterThan(0);
    const waiting = full.waitingOnCustomer.rows;
    expect(waiting.length).toBeGreaterThanOrEqual(5);
    expect(waiting.every((r) => r.ageDays >= 0)).toBe(true);
    expect(waiting.map((r) => r.ageDays)).toEqual(
      [...waiting.map((r) => r.ageDays)].sort((a, b) => b - a),
    );
    // A's own ticket for the incident it links, never B's
    const tickets = waiting.map((r) => r.ticketId).filter((t) => t !== null);
    expect(tickets).toEqual([9]);
    // threats are defanged in the list
    expect(waiting.some((r) => r.subject.includes('[.]'))).toBe(true);
  });

  it("another account's records are not counted: B sees its own failed reports and ticket", async () => {
    const service = new AnalyticsService(db, now);
    const b = await service.forAccount(sourceOf(accountB, [DEMO_RETAIL_CLIENT_ID]), null);
    expect(b.clients.map((c) => c.id)).toEqual([DEMO_RETAIL_CLIENT_ID]);
    expect(b.reportsPerWeek.find((r) => r.outcome === 'report_failed')?.count).toBe(3);
    expect(JSON.stringify(b)).not.toContain(DEMO_PARENT_CLIENT_ID);
    expect(JSON.stringify(b)).not.toContain('Demo Bank');
  });

  it('one client only: its numbers, without the account-wide failed reports', async () => {
    const service = new AnalyticsService(db, now);
    const bank = await service.forAccount(sourceOf(accountA), DEMO_BANK_CLIENT_ID);
    expect(bank.clientFilter).toBe(DEMO_BANK_CLIENT_ID);
    expect(bank.clients).toEqual([{ id: DEMO_BANK_CLIENT_ID, name: 'Demo Bank' }]);
    expect(bank.reportsPerWeek.some((r) => r.outcome === 'report_failed')).toBe(false);
    const bankIncidents = bank.reportsPerWeek.reduce((sum, r) => sum + r.count, 0);
    expect(bankIncidents).toBeGreaterThan(0);
    expect(bankIncidents).toBeLessThan(full.reportsPerWeek.reduce((sum, r) => sum + r.count, 0));
  });

  it('an empty account: empty charts, nothing partial', async () => {
    const empty = createIncidentSandbox({ seed: true, seedHistory: false });
    const emptyListening = await empty.listen(0);
    try {
      // the seeded demo incidents are months old: outside the window
      const service = new AnalyticsService(db, () => Date.parse('2027-06-01T00:00:00Z'));
      const result = await service.forAccount(
        {
          accountId: (await db.prisma.account.create({ data: { zendeskSubdomain: 'empty' } })).id,
          clientIds: [DEMO_BANK_CLIENT_ID],
          client: (clientId) =>
            createIncidentClient({ baseURL: emptyListening.url, apiKey: DEMO_API_KEY, clientId }),
        },
        null,
      );
      expect(result.partial).toEqual([]);
      expect(result.reportsPerWeek).toEqual([]);
      expect(result.timeToTakedown).toEqual({
        buckets: expect.any(Array),
        overall: null,
        byRegistrar: [],
        byHosting: [],
      });
      expect(result.successRate.rows).toEqual([
        {
          clientId: DEMO_BANK_CLIENT_ID,
          clientName: 'Demo Bank',
          succeeded: 0,
          failed: 0,
          rate: null,
        },
      ]);
      expect(result.blocklistCoverage).toEqual({ incidents: 0, covered: 0, rate: null, rows: [] });
      expect(result.waitingOnCustomer.rows).toEqual([]);
      for (const chart of ['reports-per-week', 'time-to-takedown', 'waiting-on-customer'] as const)
        expect(chartCsv(result, chart).split('\r\n').filter(Boolean)).toHaveLength(1);
    } finally {
      await empty.close();
    }
  });

  it('a service that fails: a clear partial state, and what could be read is still shown', async () => {
    const service = new AnalyticsService(db, now);
    const failing = (clientId: string): IncidentClient =>
      createIncidentClient({
        baseURL: listening.url,
        apiKey: DEMO_API_KEY,
        clientId,
        retry: { maxRetries: 0 },
        fetch: (input, init) =>
          clientId === DEMO_RETAIL_CLIENT_ID
            ? Promise.resolve(new Response('{"message":"down"}', { status: 500 }))
            : fetch(input, init),
      });
    const result = await service.forAccount(
      { accountId: accountA, clientIds: CLIENTS, client: failing },
      null,
    );
    const parts = result.partial.filter((p) => p.clientId === DEMO_RETAIL_CLIENT_ID);
    expect(parts.map((p) => p.part).sort()).toEqual([
      'credits',
      'incidents',
      'takedown attempts',
      'waiting on the customer',
    ]);
    expect(result.partial.every((p) => p.clientId === DEMO_RETAIL_CLIENT_ID)).toBe(true);
    expect(result.successRate.basis).toBe('statuses');
    expect(result.credits.rows.find((r) => r.clientId === DEMO_RETAIL_CLIENT_ID)).toMatchObject({
      remainingCredits: 'unknown',
    });
    expect(result.reportsPerWeek.length).toBeGreaterThan(0);
  });

  it('bounds per-incident reads and caches them (and the whole answer)', async () => {
    const service = new AnalyticsService(db, now, { detailReads: 5, answerTtlMs: 0 });
    retrieves = 0;
    const first = await service.forAccount(sourceOf(accountA), null);
    expect(retrieves).toBe(5);
    expect(first.partial.some((p) => p.part === 'registrar, hosting and blocklists')).toBe(true);
    retrieves = 0;
    await service.forAccount(sourceOf(accountA), null);
    expect(retrieves).toBe(0); // same incidents, unchanged: read from the cache

    const cachedAnswer = new AnalyticsService(db, now);
    const one = await cachedAnswer.forAccount(sourceOf(accountA), DEMO_BANK_CLIENT_ID);
    retrieves = 0;
    expect(await cachedAnswer.forAccount(sourceOf(accountA), DEMO_BANK_CLIENT_ID)).toBe(one);
    expect(retrieves).toBe(0);
  });

  it('each chart has its numbers as CSV', () => {
    const csv = chartCsv(full, 'time-to-takedown').split('\r\n');
    expect(csv[0]).toBe(
      'group,name,incidents,median hours,under 1 day,1 to 3 days,3 to 7 days,over 7 days',
    );
    expect(csv.some((line) => line.startsWith('registrar,Offshore Names Ltd,'))).toBe(true);
    expect(chartCsv(full, 'credits')).toContain('cl_demo_bank,Demo Bank,not used,');
    expect(chartCsv(full, 'reports-per-week').split('\r\n')[0]).toBe('week,type,outcome,incidents');
  });
});
