// One incident-event run reads the incident's link once: each later stage of the resolution goes
// on from what its own step returned (a link saved, completed or opened), never reading it back.
import { randomUUID } from 'node:crypto';
import type { TDatabase } from '@incident-desk/db';
import { describe, expect, it } from 'vitest';
import { saveLinkUnderClaim } from '../src/sync/incident-link-claim';
import { handleOnce } from './support/run-incident-event';
import { startHarness } from './sync-incident-harness';
import { backends } from './support/test-database';
import { startedForTests } from './support/started-for-tests';

// the link lookup's statement (incident-link-store.ts findLink): the link beside the incident's claim
const LINK_LOOKUP = /FROM incident_link[\s\S]*JOIN incident_ticket_claim/;

/** The database, counting the link lookups sent through its driver. */
function countingLinkLookups(db: TDatabase): { db: TDatabase; lookups: () => number } {
  let lookups = 0;
  const counting = <T extends object>(driver: T): T =>
    new Proxy(driver, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key);
        if (typeof value !== 'function') return value;
        if (key !== 'query') return value.bind(target);
        return (text: unknown, ...rest: unknown[]) => {
          if (typeof text === 'string' && LINK_LOOKUP.test(text)) lookups += 1;
          return value.call(target, text, ...rest);
        };
      },
    });
  const counted = new Proxy(db, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      return (key === 'pglite' || key === 'pool') && typeof value === 'object' && value !== null
        ? counting(value)
        : value;
    },
  });
  return { db: counted, lookups: () => lookups };
}

describe.each(backends)('link reads of one incident-event run on %s', (backend) => {
  const h = startedForTests(() => startHarness(backend));

  /** One run of the event's job (no wait for an unlinked incident): its outcome and lookups. */
  const runOnce = async (
    name: Parameters<typeof h.job>[0],
    data: Record<string, unknown>,
    extra: { claimStaleMs?: number } = {},
  ) => {
    const counted = countingLinkLookups(h.db);
    const deps = { db: counted.db, unlinkedWaitMs: 0, pollIntervalMs: 10, ...extra };
    const outcome = await handleOnce(deps, h.context(), h.job(name, data));
    return { outcome, lookups: counted.lookups() };
  };
  const history = (incidentId: string) => ({
    incidentId,
    historyEntry: { message: `Registrar contacted ${randomUUID()}.` },
  });
  const linkedTickets = async (incidentId: string) =>
    (
      await h.db.prisma.incidentLink.findMany({
        where: { accountId: h.accountId, incidentId },
      })
    ).map((link) => Number(link.ticketId));

  it('an event of a linked incident reads its link once', async () => {
    const incident = await h.seedIncident({ url: `https://linked${h.uid()}.example.org/` });
    const { ticket } = await h.zendesk.tickets.create({
      subject: 'Reported',
      comment: { body: 'report' },
    });
    await saveLinkUnderClaim(h.db, {
      accountId: h.accountId,
      incidentId: incident.id,
      ticketId: ticket.id,
      reportRef: null,
    });
    const run = await runOnce('incident.history_created', history(incident.id));
    expect(run.outcome.status).toBe('applied');
    expect(run.lookups).toBe(1);
  });

  it('a ticket found by the recovery search is linked without reading the link back', async () => {
    const incidentId = `reads${h.uid()}`;
    const { ticket } = await h.zendesk.tickets.create({
      subject: 'Reported before the link table knew it',
      comment: { body: 'report' },
      custom_fields: [{ id: h.seed.incidentFieldId, value: incidentId }],
    });
    const run = await runOnce('incident.history_created', history(incidentId));
    expect(run.outcome.status).toBe('applied');
    expect(await linkedTickets(incidentId)).toEqual([ticket.id]);
    expect(run.lookups).toBe(1);
  });

  it('a stale claim taken over opens the ticket and applies the event from the link it saved', async () => {
    const incident = await h.seedIncident({ url: `https://stale-reads${h.uid()}.example.org/` });
    await h.db.prisma.incidentTicketClaim.create({
      data: { accountId: h.accountId, incidentId: incident.id, holder: randomUUID() },
    });
    const run = await runOnce('incident.history_created', history(incident.id), {
      claimStaleMs: 0,
    });
    expect(run.outcome).toMatchObject({ status: 'applied', detail: /^opened ticket / });
    expect(await linkedTickets(incident.id)).toHaveLength(1);
    expect(run.lookups).toBe(1);
  });

  it('a detected incident reads its link once, and once more only right after taking its claim', async () => {
    const incident = await h.seedIncident({ url: `https://detected-reads${h.uid()}.example.org/` });
    const run = await runOnce('incident.history_created', history(incident.id));
    expect(run.outcome).toMatchObject({ status: 'applied', detail: /^opened ticket / });
    const [ticketId] = await linkedTickets(incident.id);
    // the history entry reached the ticket opened for it, from the link the opening saved
    expect(
      await h.db.prisma.pendingTicketChange.count({
        where: {
          accountId: h.accountId,
          ticketId: BigInt(ticketId!),
          eventName: 'incident.history_created',
        },
      }),
    ).toBe(1);
    expect(run.lookups).toBe(2);
  });
});
