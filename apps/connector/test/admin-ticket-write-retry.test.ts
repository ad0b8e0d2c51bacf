// "Retry now" on the admin page (POST /admin/api/ticket-writes/retry): the session's account's
// waiting ticket changes that a failure put off become due at once; a change a request is carrying
// is left to it, and another account's changes are untouched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminHarness, type AdminHarness, type SignedIn } from './admin-harness';
import { backends } from './support/test-database';

describe.each(backends)('admin "Retry now" for ticket updates (%s)', (backend) => {
  let h: AdminHarness;
  let acmeId: string;
  let globexId: string;
  let acme: SignedIn;
  const later = () => new Date(Date.now() + 60 * 60_000);

  const change = (accountId: string, eventRef: string, extra: Record<string, unknown> = {}) =>
    h.connector.db.prisma.pendingTicketChange.create({
      data: {
        accountId,
        ticketId: 9_999_001n,
        incidentId: 'inc_retry',
        eventRef,
        eventName: 'incident.status_changed',
        eventAt: new Date(),
        readyAt: later(),
        ...extra,
      },
    });

  beforeAll(async () => {
    h = await startAdminHarness(backend);
    const acmeUsers = await h.createAccount('acme');
    const globexUsers = await h.createAccount('globex');
    expect((await h.install('acme', acmeUsers.adminId)).status).toBe(303);
    expect((await h.install('globex', globexUsers.adminId)).status).toBe(303);
    acmeId = await h.accountId('acme');
    globexId = await h.accountId('globex');
    acme = await h.signIn('acme', acmeUsers.adminId);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers 401 without a session', async () => {
    expect((await h.api(null, 'POST', '/admin/api/ticket-writes/retry')).status).toBe(401);
  });

  it('makes the account’s put-off changes due now; in-flight changes and other accounts keep theirs', async () => {
    const putOff = await change(acmeId, 'evt-put-off');
    const inFlight = await change(acmeId, 'evt-in-flight', { writeHolder: 'instance-x' });
    const others = await change(globexId, 'evt-globex');

    const answer = await h.api(acme, 'POST', '/admin/api/ticket-writes/retry');
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ woken: 1, pausedUntil: null });

    const rows = await h.connector.db.prisma.pendingTicketChange.findMany({
      where: { id: { in: [putOff.id, inFlight.id, others.id] } },
    });
    const byId = new Map(rows.map((row) => [row.id, row]));
    // due now (the writer may already have taken it up: then it is no longer put off either)
    const woken = byId.get(putOff.id);
    if (woken && woken.writtenAt === null && woken.failedReason === null)
      expect(woken.readyAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(byId.get(inFlight.id)!.readyAt.getTime()).toBe(inFlight.readyAt.getTime());
    expect(byId.get(others.id)!.readyAt.getTime()).toBe(others.readyAt.getTime());
  });

  it('says when Zendesk asked to wait (a 429 pause still holds)', async () => {
    const until = later();
    await h.connector.db.prisma.ticketWritePause.create({
      data: { accountId: acmeId, pausedUntil: until },
    });
    const answer = await h.api(acme, 'POST', '/admin/api/ticket-writes/retry');
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ pausedUntil: until.toISOString() });
  });
});
