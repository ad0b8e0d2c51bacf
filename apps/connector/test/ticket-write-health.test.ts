// The account writers' health: each failure of a ticket write, where the writer meets it, names a
// cause (a Zendesk 5xx, 429, 401, 403, a lost connection, a lost authorisation) from its first
// occurrence until a write succeeds; a change waiting past the threshold makes its account late
// without any error. The real writer against the Zendesk sandbox and its injected faults.
import { ACCESS_CAUSES } from '@incident-desk/admin-contract';
import {
  ZendeskConnectionError,
  ZendeskForbiddenError,
  ZendeskRateLimitedError,
  ZendeskRecordInvalidError,
  ZendeskRecordNotFoundError,
  ZendeskServerError,
  ZendeskTimeoutError,
  ZendeskUnauthorizedError,
} from '@incident-desk/zendesk-api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startInstanceLiveness, type InstanceLiveness } from '../src/worker/instance-liveness';
import { AccountUnavailableError } from '../src/accounts/account-context';
import { handleIncidentEvent } from '../src/sync/incident-events/handle-incident-event';
import {
  startTicketWriter,
  type TicketWriterService,
} from '../src/sync/ticket-writes/ticket-writer-service';
import { writeFailureOf } from '../src/sync/ticket-writes/write-failure-cause';
import {
  clearWriteFailure,
  writeHealthRecorder,
  type WriteHealthRecorder,
} from '../src/sync/ticket-writes/write-health-recorder';
import {
  readAccountWriteHealth,
  readWriteHealthOverview,
} from '../src/sync/ticket-writes/write-health-report';
import { startHarness, type Harness } from './sync-incident-harness';
import { eventually } from './support/eventually';
import { backends } from './support/test-database';

const api = (status: number) => ({
  status,
  headers: new Headers(),
  body: {},
  method: 'PUT',
  path: '/api/v2/tickets/1.json',
});

describe('writeFailureOf', () => {
  it('names the cause of what holds the account back, and nothing for one ticket’s refusal', () => {
    expect(writeFailureOf(new ZendeskServerError(api(500)))).toEqual({
      cause: 'zendesk_5xx',
      status: 500,
      detail: null,
    });
    expect(
      writeFailureOf(new ZendeskRateLimitedError({ ...api(429), retryAfterSeconds: 30 })),
    ).toEqual({ cause: 'zendesk_rate_limited', status: 429, detail: 'Retry-After 30 s' });
    expect(writeFailureOf(new ZendeskUnauthorizedError(api(401)))?.cause).toBe(
      'reauthorization_required',
    );
    expect(
      writeFailureOf(new ZendeskForbiddenError({ ...api(403), missingScope: 'tickets:write' })),
    ).toEqual({ cause: 'zendesk_forbidden', status: 403, detail: 'missing scope tickets:write' });
    expect(writeFailureOf(new ZendeskTimeoutError('timed out'))?.cause).toBe('zendesk_timeout');
    expect(writeFailureOf(new ZendeskConnectionError('reset'))?.cause).toBe('zendesk_connection');
    expect(
      writeFailureOf(new AccountUnavailableError('a', 'reauthorization_required'))?.cause,
    ).toBe('reauthorization_required');
    expect(writeFailureOf(new AccountUnavailableError('a', 'not_configured'))?.cause).toBe(
      'not_configured',
    );
    // a closed or deleted ticket is that ticket's dead letter; the database is the instance's
    expect(writeFailureOf(new ZendeskRecordInvalidError(api(422)))).toBeNull();
    expect(writeFailureOf(new ZendeskRecordNotFoundError(api(404)))).toBeNull();
    expect(writeFailureOf(new Error('connection terminated'))).toBeNull();
  });
});

describe.each(backends)('ticket write health on %s', (backend) => {
  let h: Harness;
  let recorder: WriteHealthRecorder;
  let writer: TicketWriterService | undefined;
  const settings = { now: () => new Date(), lateAfterSeconds: 120 };
  const health = (accountId = h.accountId) => readAccountWriteHealth(h.db, accountId, settings);
  const generous = { accountPerMinute: 1_000, ticketPerTenMinutes: 1_000 };

  /** The account's writer as the connector runs it, its failures and successes recorded. */
  function startWriter(contextFor = async () => h.context()): TicketWriterService {
    recorder = writeHealthRecorder(h.db, { log: () => undefined });
    writer = startTicketWriter({
      db: h.db,
      instance,
      contextFor,
      limits: generous,
      sweepIntervalMs: 50,
      minPassIntervalMs: 50,
      log: () => undefined,
      drain: {
        unsureRetryMs: 50,
        // a 429 leaves its changes leased until the request could have finished
        leaseMs: 200,
        onWriteFailure: recorder.failed,
        onWriteSucceeded: recorder.succeeded,
      },
    });
    return writer;
  }

  async function statusChange(incidentId: string, status: string): Promise<void> {
    const applied = await handleIncidentEvent(
      { db: h.db, unlinkedWaitMs: 10, writeHoldMs: 0, writer: writer! },
      h.context(),
      h.job('incident.status_changed', { incidentId, status }),
    );
    expect(applied.status).toBe('applied');
  }

  const failingWith = (cause: string, accountId = h.accountId) =>
    eventually(`the account failing with ${cause}`, async () => {
      const read = await health(accountId);
      return read.state === 'failing' && read.failure?.cause === cause ? read : undefined;
    });

  let instance: InstanceLiveness;
  beforeAll(async () => {
    h = await startHarness(backend);
    instance = await startInstanceLiveness({ db: h.db });
  });
  afterEach(async () => {
    await writer?.stop();
    await recorder?.settled();
    writer = undefined;
    await h.clearZendeskFaults();
    await h.zendeskControl('PUT', '/rate-limit', { update_ticket_per_minute: 100 });
    await h.db.prisma.pendingTicketChange.updateMany({
      where: { writtenAt: null, failedReason: null },
      data: { failedReason: 'test over' },
    });
    await h.db.prisma.ticketWritePause.deleteMany({});
    for (const accountId of [h.accountId, h.otherAccountId])
      await clearWriteFailure(h.db, accountId, new Date());
    // and forgotten: a backdated change of the next test would be recovering from it
    await h.db.prisma.accountHealth.updateMany({ data: { ticketWriteFailedAt: null } });
  });
  afterAll(async () => {
    await instance?.stop();
    await h?.close();
  });

  it('a Zendesk 500 to ticket updates: failing with zendesk_5xx from the first failure until a write succeeds', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    await h.zendeskFault({
      path: '/api/v2/tickets/*',
      method: 'PUT',
      kind: 'error',
      status: 500,
    });
    startWriter();
    await statusChange(incidentId, 'case_building');

    const first = await failingWith('zendesk_5xx');
    expect(first.failure).toMatchObject({ status: 500, detail: null });
    expect(first.waiting).toBe(1);
    expect(first.oldestWaitingAt).not.toBeNull();
    // the writer keeps trying: each failure moves lastAt, the run keeps its start
    const later = await eventually('a later failure', async () => {
      const read = await health();
      return read.failure && read.failure.lastAt > first.failure!.lastAt ? read : undefined;
    });
    expect(later.failure?.since).toBe(first.failure?.since);

    // the operator's view names the account by subdomain, and no other account
    const overview = await readWriteHealthOverview(h.db, settings);
    expect(overview.accounts.map((account) => [account.subdomain, account.state])).toEqual([
      [`acme${backend}`, 'failing'],
    ]);
    expect(overview.troubled).toMatchObject({ zendesk_5xx: 1, late: 0 });
    expect((await health(h.otherAccountId)).state).toBe('ok');

    await h.clearZendeskFaults();
    await eventually('the write through, the failure over', async () => {
      const read = await health();
      return read.state === 'ok' && read.waiting === 0 ? read : undefined;
    });
    expect((await health()).failure).toBeNull();
    const row = await h.db.prisma.accountHealth.findUniqueOrThrow({
      where: { accountId: h.accountId },
    });
    expect([row.ticketWriteFailingSince, row.ticketWriteFailureCause]).toEqual([null, null]);
    expect(h.fieldValue(await h.ticket(ticketId), h.seed.statusFieldId)).toBe(
      'incident_status_case_building',
    );
    expect((await readWriteHealthOverview(h.db, settings)).accounts).toEqual([]);
  });

  it('recovering once a write succeeds again, until every change the failure held back is written', async () => {
    const held = await h.linkedTicket();
    const stub = { db: h.db, unlinkedWaitMs: 10, writeHoldMs: 0, writer: { signal: () => {} } };
    const change = (incidentId: string, status: string) =>
      handleIncidentEvent(
        stub,
        h.context(),
        h.job('incident.status_changed', { incidentId, status }),
      );
    await change(held.incidentId, 'case_building');
    recorder = writeHealthRecorder(h.db, { log: () => undefined });
    recorder.failed(h.accountId, new ZendeskServerError(api(500)));
    await recorder.settled();
    const failing = await health();
    expect(failing.state).toBe('failing');

    // Zendesk takes another ticket's update: the run is over, the held-back change still waits
    recorder.succeeded(h.accountId);
    await recorder.settled();
    const recovering = await health();
    expect(recovering).toMatchObject({
      state: 'recovering',
      failure: null,
      recoveringFrom: failing.failure!.lastAt,
      waiting: 1,
    });
    const overview = await readWriteHealthOverview(h.db, settings);
    expect(overview.accounts.map((account) => [account.subdomain, account.state])).toEqual([
      [`acme${backend}`, 'recovering'],
    ]);
    expect(overview.troubled).toMatchObject({ recovering: 1, zendesk_5xx: 0, late: 0 });

    // a change recorded after the failure is no sign of it
    const fresh = await h.linkedTicket();
    await h.db.prisma.pendingTicketChange.updateMany({
      where: { accountId: h.accountId, incidentId: held.incidentId },
      data: { writtenAt: new Date() },
    });
    await change(fresh.incidentId, 'case_building');
    expect(await health()).toMatchObject({ state: 'ok', recoveringFrom: null, waiting: 1 });
    expect((await readWriteHealthOverview(h.db, settings)).accounts).toEqual([]);
  });

  it('a 429: failing as rate limited with its Retry-After, over with the write after the pause', async () => {
    const a = await h.linkedTicket();
    const b = await h.linkedTicket();
    // one Update Ticket request per 2 s: the writer's own budget does not know it
    await h.zendeskControl('PUT', '/rate-limit', {
      update_ticket_per_minute: 1,
      update_ticket_window_ms: 2_000,
    });
    startWriter();
    await statusChange(a.incidentId, 'case_building');
    await eventually('the first write', async () =>
      (await h.notes(a.ticketId)).length === 1 ? true : undefined,
    );
    await statusChange(b.incidentId, 'blocklisted');
    const limited = await failingWith('zendesk_rate_limited');
    expect(limited.failure).toMatchObject({ status: 429 });
    expect(limited.failure?.detail).toMatch(/^Retry-After \d+ s$/);
    await eventually('the pause over and the change written', async () => {
      const read = await health();
      return read.state === 'ok' && read.waiting === 0 ? true : undefined;
    });
    expect(h.fieldValue(await h.ticket(b.ticketId), h.seed.statusFieldId)).toBe(
      'incident_status_blocklisted',
    );
  });

  it('a 401 after the token’s renewal, and an authorisation gone: re-authorisation required', async () => {
    const { incidentId } = await h.linkedTicket();
    await h.zendeskFault({ path: '/api/v2/tickets/*', method: 'PUT', kind: 'unauthorized' });
    startWriter();
    await statusChange(incidentId, 'case_building');
    expect((await failingWith('reauthorization_required')).failure?.status).toBe(401);
    await writer!.stop();

    // the other account's credential is marked: its writer cannot even start
    startWriter(async () => {
      throw new AccountUnavailableError(h.otherAccountId, 'reauthorization_required');
    });
    writer!.signal(h.otherAccountId);
    const gone = await failingWith('reauthorization_required', h.otherAccountId);
    // nothing waits for it, and still an administrator must act
    expect([gone.waiting, gone.failure?.status]).toEqual([0, null]);
  });

  it('a 403: the change is refused for good and the account fails until it is authorised again', async () => {
    const { incidentId } = await h.linkedTicket();
    await h.zendeskFault({ path: '/api/v2/tickets/*', method: 'PUT', kind: 'forbidden' });
    startWriter();
    await statusChange(incidentId, 'case_building');
    const refused = await failingWith('zendesk_forbidden');
    expect(refused.failure?.status).toBe(403);
    await eventually('the change a dead letter', async () =>
      (await h.db.prisma.syncFailure.count({
        where: { accountId: h.accountId, resolvedAt: null },
      })) > 0
        ? true
        : undefined,
    );
    await recorder.settled();
    expect(await health()).toMatchObject({ state: 'failing', waiting: 0 });

    // what the install callback does when an admin authorises again
    await clearWriteFailure(h.db, h.accountId, new Date(), ACCESS_CAUSES);
    expect(await health()).toMatchObject({ state: 'ok', failure: null });
  });

  it('a dropped connection: zendesk_connection', async () => {
    const { incidentId } = await h.linkedTicket();
    await h.zendeskFault({ path: '/api/v2/tickets/*', method: 'PUT', kind: 'drop' });
    startWriter();
    await statusChange(incidentId, 'case_building');
    expect((await failingWith('zendesk_connection')).failure?.status).toBeNull();
  });

  it('late without an error: a change waiting past the threshold', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    const tenMinutesAgo = new Date(Date.now() - 600_000);
    await h.db.prisma.pendingTicketChange.create({
      data: {
        accountId: h.accountId,
        ticketId: BigInt(ticketId),
        incidentId,
        eventRef: `evt_late_${backend}`,
        eventName: 'incident.status_changed',
        eventAt: tenMinutesAgo,
        statusValue: 'case_building',
        // held: no writer takes it before then
        readyAt: new Date(Date.now() + 3_600_000),
        createdAt: tenMinutesAgo,
      },
    });
    const late = await health();
    expect(late).toMatchObject({ state: 'late', failure: null, waiting: 1 });
    expect(late.oldestWaitingAt).toBe(tenMinutesAgo.toISOString());
    const overview = await readWriteHealthOverview(h.db, settings);
    expect(overview.accounts).toHaveLength(1);
    expect(overview.accounts[0]).toMatchObject({
      subdomain: `acme${backend}`,
      state: 'late',
      failure: null,
    });
    expect(overview.accounts[0]!.oldestWaitingSeconds).toBeGreaterThanOrEqual(600);
    expect(overview.oldestWaitingSeconds).toBeGreaterThanOrEqual(600);
    expect(overview.troubled).toMatchObject({ late: 1, zendesk_5xx: 0 });
    // under a threshold longer than its wait, the same account is fine
    expect(
      (await readAccountWriteHealth(h.db, h.accountId, { ...settings, lateAfterSeconds: 900 }))
        .state,
    ).toBe('ok');
  });

  it('a failure whose changes are gone without a success (its note found after all) is over; the next starts anew', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    const waiting = (eventRef: string, createdAt: Date) =>
      h.db.prisma.pendingTicketChange.create({
        data: {
          accountId: h.accountId,
          ticketId: BigInt(ticketId),
          incidentId,
          eventRef,
          eventName: 'incident.status_changed',
          eventAt: createdAt,
          statusValue: 'case_building',
          readyAt: new Date(Date.now() + 3_600_000),
          createdAt,
        },
      });
    const start = Date.now();
    let clock = new Date(start - 5_000);
    const recorder = writeHealthRecorder(h.db, { now: () => clock, log: () => undefined });
    const held = await waiting(`evt_gone_${backend}_1`, new Date(start - 10_000));
    recorder.failed(h.accountId, new ZendeskServerError(api(502)));
    await recorder.settled();
    expect((await health()).failure).toMatchObject({
      cause: 'zendesk_5xx',
      since: clock.toISOString(),
    });

    // the next pass finds the note on the ticket: written, though no write succeeded
    await h.db.prisma.pendingTicketChange.update({
      where: { id: held.id },
      data: { writtenAt: new Date() },
    });
    await waiting(`evt_gone_${backend}_2`, new Date(start));
    expect(await health()).toMatchObject({ state: 'ok', failure: null, waiting: 1 });

    clock = new Date(start + 1_000);
    recorder.failed(h.accountId, new ZendeskServerError(api(500)));
    await recorder.settled();
    expect((await health()).failure).toMatchObject({
      status: 500,
      since: clock.toISOString(),
    });
  });

  it('records an account’s failures and successes in the order they were told', async () => {
    let clock = new Date('2033-01-01T10:00:00Z');
    const ordered = writeHealthRecorder(h.db, { now: () => clock, log: () => undefined });
    const at = (iso: string) => (clock = new Date(iso));
    ordered.failed(h.accountId, new ZendeskServerError(api(502)));
    at('2033-01-01T10:01:00Z');
    ordered.failed(h.accountId, new ZendeskServerError(api(503)));
    at('2033-01-01T10:02:00Z');
    ordered.succeeded(h.accountId);
    at('2033-01-01T10:03:00Z');
    ordered.failed(h.accountId, new ZendeskRateLimitedError(api(429)));
    // a refusal of one ticket leaves the run as it is
    ordered.failed(h.accountId, new ZendeskRecordInvalidError(api(422)));
    await ordered.settled();
    const row = await h.db.prisma.accountHealth.findUniqueOrThrow({
      where: { accountId: h.accountId },
    });
    expect(row).toMatchObject({
      ticketWriteFailingSince: new Date('2033-01-01T10:03:00Z'),
      ticketWriteFailedAt: new Date('2033-01-01T10:03:00Z'),
      ticketWriteFailureCause: 'zendesk_rate_limited',
      ticketWriteFailureStatus: 429,
    });
    at('2033-01-01T10:04:00Z');
    ordered.succeeded(h.accountId);
    await ordered.settled();
    expect(
      await h.db.prisma.accountHealth.findUniqueOrThrow({ where: { accountId: h.accountId } }),
    ).toMatchObject({ ticketWriteFailingSince: null, ticketWriteFailureCause: null });
  });
});
