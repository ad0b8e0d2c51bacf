// The order of the sidebar view's reads, with fakes that record when each call starts: what can
// run alongside the ticket read does, and a known incident's credits are read alongside it.
import { describe, expect, it } from 'vitest';
import type { TDatabase } from '@incident-desk/db';
import type { IncidentClient } from '@incident-desk/incident-api';
import type { TTicket } from '@incident-desk/zendesk-api';
import type { AccountContext } from '../src/accounts/account-context';
import { IncidentClientIds, readIncidentParts } from '../src/sidebar-api/incident-parts';
import { buildTicketView, startEarlyViewReads } from '../src/sidebar-api/ticket-view';

const FIELDS = { threat: 11, incidentId: 12, status: null };
const ACCOUNT = 'account-1';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** An incident client whose calls are logged and answered when the test says so. */
function fakeIncidents(clientIdOf: (incidentId: string) => string = () => 'cl_parent') {
  const calls: string[] = [];
  const incident = deferred<void>();
  const client = {
    incidents: {
      async retrieve(id: string) {
        calls.push(`incident ${id}`);
        await incident.promise;
        return { id, clientId: clientIdOf(id), status: 'pending_review' };
      },
      async snapshots(id: string) {
        calls.push(`snapshots ${id}`);
        return { snapshots: [] };
      },
    },
    resolutions: {
      async listPage({ search }: { search: string }) {
        calls.push(`attempts ${search}`);
        return { data: [{ id: search, takedownAttempts: [] }] };
      },
    },
    usage: {
      async retrieve(params: { clientId?: string }) {
        calls.push(`usage ${params.clientId ?? 'own'}`);
        return { remainingCredits: 5 };
      },
    },
  };
  return {
    calls,
    answerIncident: () => incident.resolve(),
    client: client as unknown as IncidentClient,
  };
}

function fakeDb(linkedIncidentId: string | null): TDatabase {
  return {
    prisma: {
      incidentLink: {
        findUnique: async () => (linkedIncidentId ? { incidentId: linkedIncidentId } : null),
      },
      ticketSyncState: { findUnique: async () => null },
      forwardedComment: { findMany: async () => [] },
      syncFailure: { findMany: async () => [] },
      pendingTicketChange: {
        aggregate: async () => ({ _count: { _all: 0 }, _min: { createdAt: null } }),
      },
      ticketWritePause: { findUnique: async () => null },
      reconciliationEntry: { findUnique: async () => null },
      reportAttempt: { findFirst: async () => null },
    },
  } as unknown as TDatabase;
}

function ctxWith(incidents: IncidentClient): AccountContext {
  return {
    accountId: ACCOUNT,
    subdomain: 'acme',
    zendesk: {} as AccountContext['zendesk'],
    incidents: () => incidents,
    fields: FIELDS,
    settings: {
      forwardInternalNotes: false,
      solveOnTakedownSuccess: false,
      openTicketsForDetectedIncidents: true,
      newTicketGroupId: null,
    },
    noteLocale: 'en',
    canReadAudits: true,
  };
}

function ticket(incidentIdField: string | null): TTicket {
  return {
    id: 42,
    tags: [],
    custom_fields: [
      { id: FIELDS.threat, value: 'https://bad.example/' },
      { id: FIELDS.incidentId, value: incidentIdField },
    ],
  } as unknown as TTicket;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('sidebar view reads', () => {
  it('reads a linked incident while the ticket is still being read', async () => {
    const incidents = fakeIncidents();
    const ctx = ctxWith(incidents.client);
    const early = startEarlyViewReads(fakeDb('inc_1'), ctx, 42, new IncidentClientIds());
    await tick();
    // no ticket yet, and the incident, its snapshots and attempts are already asked for
    expect(incidents.calls).toEqual(
      expect.arrayContaining(['incident inc_1', 'snapshots inc_1', 'attempts inc_1']),
    );
    incidents.answerIncident();
    const view = await buildTicketView(fakeDb('inc_1'), ctx, ticket('inc_1'), new Date(), early);
    expect(view.ticket).toMatchObject({ linkState: 'linked', incidentId: 'inc_1' });
    expect(view.incident).toMatchObject({ id: 'inc_1' });
    expect(view.usage).toEqual({ remainingCredits: 5 });
    // each part read once
    expect(incidents.calls.filter((c) => c === 'incident inc_1')).toHaveLength(1);
  });

  it('reads the incident of the Incident ID field when it differs from the durable link', async () => {
    const incidents = fakeIncidents();
    const ctx = ctxWith(incidents.client);
    const db = fakeDb('inc_old');
    const early = startEarlyViewReads(db, ctx, 42, new IncidentClientIds());
    incidents.answerIncident();
    const view = await buildTicketView(db, ctx, ticket('inc_field'), new Date(), early);
    expect(view.ticket.incidentId).toBe('inc_field');
    expect(view.incident).toMatchObject({ id: 'inc_field' });
    expect(incidents.calls).toContain('incident inc_field');
  });

  it('reads an unlinked ticket without any incident call', async () => {
    const incidents = fakeIncidents();
    const ctx = ctxWith(incidents.client);
    const db = fakeDb(null);
    const view = await buildTicketView(
      db,
      ctx,
      ticket(null),
      new Date(),
      startEarlyViewReads(db, ctx, 42, new IncidentClientIds()),
    );
    expect(view.ticket.linkState).toBe('unlinked');
    expect(view.incident).toBeNull();
    expect(incidents.calls).toEqual([]);
  });
});

describe('credits of the incident’s client', () => {
  it('waits for the incident the first time, then reads the credits alongside it', async () => {
    const cache = new IncidentClientIds();
    const first = fakeIncidents(() => 'cl_sub');
    const firstRead = readIncidentParts(first.client, 'inc_1', { cache, accountId: ACCOUNT });
    await tick();
    expect(first.calls.some((c) => c.startsWith('usage'))).toBe(false);
    first.answerIncident();
    expect((await firstRead).usage).toEqual({ remainingCredits: 5 });
    expect(first.calls).toContain('usage cl_sub');

    const second = fakeIncidents(() => 'cl_sub');
    const secondRead = readIncidentParts(second.client, 'inc_1', { cache, accountId: ACCOUNT });
    await tick();
    expect(second.calls).toContain('usage cl_sub'); // before the incident answered
    second.answerIncident();
    expect((await secondRead).unavailable).toEqual([]);
    // another account's incident of the same id is not taken for this one
    expect(cache.get('account-2', 'inc_1')).toBeUndefined();
  });

  it('reads the credits again when the incident turns out to belong to another client', async () => {
    const cache = new IncidentClientIds();
    cache.set(ACCOUNT, 'inc_1', 'cl_old');
    const incidents = fakeIncidents(() => 'cl_new');
    const read = readIncidentParts(incidents.client, 'inc_1', { cache, accountId: ACCOUNT });
    incidents.answerIncident();
    await read;
    expect(incidents.calls).toEqual(expect.arrayContaining(['usage cl_old', 'usage cl_new']));
    expect(cache.get(ACCOUNT, 'inc_1')).toBe('cl_new');
  });
});
