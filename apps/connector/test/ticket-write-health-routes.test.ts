// Truthful health through the composed connector: while the Zendesk sandbox refuses an installed
// account's ticket updates (500, 401, 403), or its changes wait past TICKET_WRITE_LATE_SECONDS,
// /healthz's verdict says so without naming the account to the public, names it (subdomain, cause,
// since, oldest waiting) to an operator, the metrics count it, and the admin API tells the
// account's admin; /readyz stays 200 throughout, and the verdict clears once a write succeeds or
// the admin authorises again.
import { randomBytes } from 'node:crypto';
import { DEMO_API_KEY, DEMO_PARENT_CLIENT_ID } from '@incident-desk/incident-sandbox';
import type { TicketWriteHealth } from '@incident-desk/admin-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordTicketChange } from '../src/sync/ticket-writes/record-ticket-change';
import { startAdminHarness, type AdminHarness, type SignedIn } from './admin-harness';
import { eventually } from './support/eventually';
import { backends } from './support/test-database';

const METRICS_TOKEN = randomBytes(24).toString('hex');

interface OperatorWrites {
  ok: boolean;
  failing: number;
  recovering: number;
  late: number;
  troubled: Record<string, number>;
  oldestWaitingSeconds: number;
  accounts: {
    subdomain: string;
    state: string;
    cause: string | null;
    status: number | null;
    failingSince: string | null;
    waiting: number;
    oldestWaitingSeconds: number | null;
  }[];
}

/** The value of one series in a Prometheus scrape; undefined when absent. */
function sample(scrape: string, name: string, labels: Record<string, string> = {}) {
  for (const line of scrape.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`)))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe.each(backends)(
  'ticket write health in /healthz, /metrics and the admin API (%s)',
  (backend) => {
    let h: AdminHarness;
    let acme: { adminId: number; agentId: number };
    let acmeId: string;
    let session: SignedIn;
    let ticketId: number;
    const incidentId = 'inc_health_1';
    let events = 0;

    // through a proxy: the public view; with the token: the operator's
    const healthz = async (as: 'public' | 'operator') => {
      const response = await fetch(`${h.connectorUrl}/healthz`, {
        headers: {
          'x-forwarded-for': '203.0.113.9',
          ...(as === 'operator' ? { authorization: `Bearer ${METRICS_TOKEN}` } : {}),
        },
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const operatorWrites = async () =>
      (await healthz('operator')).body.ticketWrites as OperatorWrites;
    const expectReady = async () => {
      const ready = await fetch(`${h.connectorUrl}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ ok: true });
    };
    const overview = async () =>
      (await h.api(session, 'GET', '/admin/api/overview')).body.ticketWrites as TicketWriteHealth;
    const scrape = async () =>
      (
        await fetch(`${h.connectorUrl}/metrics`, {
          headers: { authorization: `Bearer ${METRICS_TOKEN}` },
        })
      ).text();
    const fault = async (kind: string, extra: Record<string, unknown> = {}) => {
      const response = await fetch(`${h.sandboxUrl}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          subdomain: 'acme',
          path: '/api/v2/tickets/*',
          method: 'PUT',
          kind,
          ...extra,
        }),
      });
      expect(response.status).toBe(201);
    };
    const clearFaults = () => fetch(`${h.sandboxUrl}/_sandbox/faults`, { method: 'DELETE' });
    /** A status change for the ticket, as an incident event's job records it; the writer's sweep finds it. */
    const statusChange = (status: string) =>
      recordTicketChange(h.connector.db, {
        accountId: acmeId,
        ticketId,
        incidentId,
        eventRef: `evt_health_${(events += 1)}`,
        eventName: 'incident.status_changed',
        eventAt: new Date(),
        entry: null,
        statusValue: status,
        readyAt: new Date(),
      });
    const healthy = () =>
      eventually('/healthz ok again', async () => {
        const { status, body } = await healthz('public');
        return status === 200 && body.ok === true ? body : undefined;
      });

    beforeAll(async () => {
      h = await startAdminHarness(backend, {
        env: { METRICS_TOKEN, TICKET_WRITE_LATE_SECONDS: '60' },
        ticketWriter: {
          sweepIntervalMs: 100,
          minPassIntervalMs: 100,
          drain: { unsureRetryMs: 100, leaseMs: 300 },
        },
      });
      acme = await h.createAccount('acme');
      expect((await h.install('acme', acme.adminId)).status).toBe(303);
      acmeId = await h.accountId('acme');
      session = await h.signIn('acme', acme.adminId);
      const setupState = async () =>
        (
          await h.connector.db.prisma.accountConfiguration.findUniqueOrThrow({
            where: { accountId: acmeId },
          })
        ).setupState;
      await eventually('the install’s setup job', async () =>
        (await setupState()) === 'needs_configuration' ? true : undefined,
      );
      const saved = await h.api(session, 'PUT', '/admin/api/incident-connection', {
        apiKey: DEMO_API_KEY,
        clientId: DEMO_PARENT_CLIENT_ID,
      });
      expect(saved.status).toBe(200);
      expect((await h.api(session, 'POST', '/admin/api/setup/rerun')).status).toBe(202);
      expect(
        await eventually('setup to finish', async () => {
          const state = await setupState();
          return state === 'succeeded' || state === 'failed' ? state : undefined;
        }),
      ).toBe('succeeded');
      const created = await fetch(`${h.sandboxUrl}/_sandbox/accounts/acme/tickets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          requester: { name: 'Rita Reporter', email: 'rita@customer.example' },
          subject: 'Phishing site',
          body: 'Please look at this.',
        }),
      });
      ticketId = ((await created.json()) as { ticket: { id: number } }).ticket.id;
      await h.connector.db.prisma.incidentLink.create({
        data: { accountId: acmeId, incidentId, ticketId: BigInt(ticketId) },
      });
    });
    afterAll(async () => {
      await h?.close();
    });

    it('starts healthy: ok, ticketWrites ok, the admin page up to date', async () => {
      const { status, body } = await healthz('public');
      expect(status).toBe(200);
      expect(body).toMatchObject({ ok: true, ticketWrites: { ok: true } });
      expect(await overview()).toMatchObject({ state: 'ok', failure: null, lateAfterSeconds: 60 });
    });

    it('Zendesk answering 500 to ticket updates: failing with zendesk_5xx, named to the operator only, until a write succeeds', async () => {
      await fault('error', { status: 500 });
      await statusChange('case_building');

      const writes = await eventually('/healthz naming the failing account', async () => {
        const found = await operatorWrites();
        return found.accounts.some((account) => account.cause === 'zendesk_5xx')
          ? found
          : undefined;
      });
      expect(writes).toMatchObject({
        ok: false,
        failing: 1,
        recovering: 0,
        late: 0,
        troubled: { zendesk_5xx: 1 },
      });
      expect(writes.accounts).toEqual([
        expect.objectContaining({
          subdomain: 'acme',
          state: 'failing',
          cause: 'zendesk_5xx',
          status: 500,
          failingSince: expect.any(String) as string,
          waiting: 1,
        }),
      ]);
      // the public learns that something fails, never whose; the status stays the instance's
      const open = await healthz('public');
      expect(open.status).toBe(200);
      expect(open.body).toEqual({
        ok: false,
        database: { ok: true },
        queue: { ok: true },
        migrations: { ok: true },
        ticketWrites: { ok: false },
      });
      expect(JSON.stringify(open.body)).not.toContain('acme');
      await expectReady();

      expect(await overview()).toMatchObject({
        state: 'failing',
        failure: { cause: 'zendesk_5xx', status: 500 },
        waiting: 1,
      });
      const metrics = await scrape();
      expect(
        sample(metrics, 'incident_desk_ticket_write_troubled_accounts', { cause: 'zendesk_5xx' }),
      ).toBe(1);
      expect(
        sample(metrics, 'incident_desk_ticket_write_troubled_accounts', { cause: 'late' }),
      ).toBe(0);
      expect(metrics).not.toContain(acmeId);

      await clearFaults();
      await healthy();
      expect(await operatorWrites()).toMatchObject({ ok: true, failing: 0, accounts: [] });
      expect(await overview()).toMatchObject({ state: 'ok', failure: null, waiting: 0 });
      await expectReady();
    });

    it('a change waiting past the threshold without an error: late, with its own series while it lasts', async () => {
      // no failure on record: a change older than the last test's failure would be recovering from it
      await h.connector.db.prisma.accountHealth.updateMany({
        where: { accountId: acmeId },
        data: { ticketWriteFailedAt: null },
      });
      const tenMinutesAgo = new Date(Date.now() - 600_000);
      const held = await h.connector.db.prisma.pendingTicketChange.create({
        data: {
          accountId: acmeId,
          ticketId: BigInt(ticketId),
          incidentId,
          eventRef: 'evt_health_late',
          eventName: 'incident.status_changed',
          eventAt: tenMinutesAgo,
          statusValue: 'case_building',
          // held for a companion longer than anyone waits: no writer takes it meanwhile
          readyAt: new Date(Date.now() + 3_600_000),
          createdAt: tenMinutesAgo,
        },
      });
      try {
        const writes = await operatorWrites();
        expect(writes).toMatchObject({ ok: false, failing: 0, late: 1, troubled: { late: 1 } });
        expect(writes.accounts[0]).toMatchObject({
          subdomain: 'acme',
          state: 'late',
          cause: null,
          failingSince: null,
        });
        expect(writes.accounts[0]!.oldestWaitingSeconds).toBeGreaterThanOrEqual(600);
        expect((await healthz('public')).body).toMatchObject({
          ok: false,
          ticketWrites: { ok: false },
        });
        await expectReady();
        expect(await overview()).toMatchObject({ state: 'late', failure: null, waiting: 1 });

        const metrics = await scrape();
        expect(
          sample(metrics, 'incident_desk_ticket_write_late_account_oldest_waiting_seconds', {
            subdomain: 'acme',
          }),
        ).toBeGreaterThanOrEqual(600);
        expect(
          sample(metrics, 'incident_desk_ticket_write_troubled_accounts', { cause: 'late' }),
        ).toBe(1);
        expect(
          sample(metrics, 'incident_desk_ticket_write_oldest_waiting_seconds'),
        ).toBeGreaterThanOrEqual(600);
        expect(metrics).not.toContain(acmeId);
      } finally {
        await h.connector.db.prisma.pendingTicketChange.update({
          where: { id: held.id },
          data: { failedReason: 'test over' },
        });
      }
      await healthy();
      const after = await scrape();
      // caught up: the account's series is gone
      expect(
        sample(after, 'incident_desk_ticket_write_late_account_oldest_waiting_seconds', {
          subdomain: 'acme',
        }),
      ).toBeUndefined();
      expect(sample(after, 'incident_desk_ticket_write_oldest_waiting_seconds')).toBeLessThan(60);
    });

    it('a 401 even after the token’s renewal: re-authorisation required, over with the next write that goes through', async () => {
      await fault('unauthorized');
      await statusChange('takedown_in_progress');
      const writes = await eventually('/healthz naming the refused account', async () => {
        const found = await operatorWrites();
        return found.accounts[0]?.cause === 'reauthorization_required' ? found : undefined;
      });
      expect(writes.accounts[0]).toMatchObject({
        subdomain: 'acme',
        state: 'failing',
        status: 401,
      });
      expect(await overview()).toMatchObject({
        state: 'failing',
        failure: { cause: 'reauthorization_required' },
      });
      await expectReady();
      await clearFaults();
      // the writer tries again after its back-off
      await healthy();
      expect(await overview()).toMatchObject({ state: 'ok', waiting: 0 });
    });

    it('a 403: the change becomes a dead letter, the account fails until its admin authorises again', async () => {
      await fault('forbidden');
      await statusChange('blocklisted');
      await eventually('/healthz naming the forbidden account', async () => {
        const found = await operatorWrites();
        return found.accounts[0]?.cause === 'zendesk_forbidden' ? found : undefined;
      });
      await clearFaults();
      await eventually('the change refused for good', async () =>
        (await h.connector.db.prisma.pendingTicketChange.count({
          where: { accountId: acmeId, writtenAt: null, failedReason: null },
        })) === 0
          ? true
          : undefined,
      );
      // nothing waits, and still nothing gets through until an administrator acts
      expect(await overview()).toMatchObject({
        state: 'failing',
        failure: { cause: 'zendesk_forbidden', status: 403 },
        waiting: 0,
      });
      expect((await healthz('public')).body).toMatchObject({ ok: false });
      await expectReady();

      expect((await h.install('acme', acme.adminId)).status).toBe(303);
      await healthy();
      expect(await overview()).toMatchObject({ state: 'ok', failure: null });
    });
  },
);
