import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IncidentApiError, RequestValidationError } from '../src';
import { incidentSparse, takedownAttempts, userFull } from './support/fixtures';
import { startStubServer, type StubServer } from './support/stub-server';

let stub: StubServer;

beforeAll(async () => {
  stub = await startStubServer();
});
afterAll(() => stub.close());
beforeEach(() => stub.reset());

const incident = (id: string) => ({ ...incidentSparse, id });
const queryOf = (index: number) => Object.fromEntries(stub.requests[index]?.url.searchParams ?? []);

describe('incidents: cursor pagination', () => {
  it('walks every page, repeating every filter, until paging.next is null', async () => {
    stub.enqueue(
      {
        json: {
          message: 'success',
          data: [incident('a'), incident('b')],
          paging: { cursor: 'b', next: 'b', limit: 2, count: 2 },
        },
      },
      {
        json: {
          message: 'success',
          data: [incident('c'), incident('d')],
          paging: { cursor: 'd', next: 'd', limit: 2, count: 2 },
        },
      },
      {
        json: {
          message: 'success',
          data: [incident('e')],
          paging: { cursor: 'e', next: null, limit: 2, count: 1 },
        },
      },
    );
    const client = stub.client({ clientId: 'sub_1' });
    const ids: string[] = [];
    for await (const item of client.incidents.list({
      status: 'takedown_in_progress',
      fromDate: '2026-01-01T00:00:00.000Z',
      incidentType: 'domain',
      limit: 2,
    })) {
      ids.push(item.id);
    }
    expect(ids).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(stub.requests).toHaveLength(3);
    const filters = {
      clientId: 'sub_1',
      status: 'takedown_in_progress',
      fromDate: '2026-01-01T00:00:00.000Z',
      incidentType: 'domain',
      limit: '2',
    };
    expect(queryOf(0)).toEqual(filters);
    expect(queryOf(1)).toEqual({ ...filters, cursor: 'b' });
    expect(queryOf(2)).toEqual({ ...filters, cursor: 'd' });
    expect(stub.requests.every((r) => r.url.pathname === '/v1/incidents')).toBe(true);
  });

  it('stops when paging.next is absent', async () => {
    stub.enqueue(
      {
        json: {
          message: 'success',
          data: [incident('a')],
          paging: { next: 'n1', limit: 1, count: 1 },
        },
      },
      {
        json: {
          message: 'success',
          data: [incident('b')],
          paging: { cursor: 'n1', limit: 1, count: 1 },
        },
      },
    );
    const items = await stub.client().incidents.list({ limit: 1 }).toArray();
    expect(items.map((i) => i.id)).toEqual(['a', 'b']);
    expect(stub.requests).toHaveLength(2);
  });

  it('fetches lazily: breaking out early requests no further page', async () => {
    stub.enqueue({
      json: {
        message: 'success',
        data: [incident('a'), incident('b')],
        paging: { next: 'n1', limit: 2, count: 2 },
      },
    });
    for await (const item of stub.client().incidents.list()) {
      expect(item.id).toBe('a');
      break;
    }
    expect(stub.requests).toHaveLength(1);
  });

  it('exposes whole pages, with includeTotal', async () => {
    stub.enqueue({
      json: {
        message: 'success',
        data: [incident('a')],
        paging: { next: null, limit: 5000, count: 1, total: 1 },
      },
    });
    const pages = [];
    for await (const page of stub.client().incidents.list({ includeTotal: true }).pages())
      pages.push(page);
    expect(pages[0]?.paging.total).toBe(1);
    expect(queryOf(0)).toEqual({ includeTotal: 'true' });
  });

  it('rejects an invalid query before any request', () => {
    expect(() =>
      stub.client().incidents.list({ includeTotal: true, statusVerbose: 'closed' }),
    ).toThrow(RequestValidationError);
    expect(() =>
      stub.client().incidents.list({ includeTotal: true, statusVerbose: 'closed' }),
    ).toThrow('includeTotal cannot be combined with statusVerbose');
    expect(stub.requests).toHaveLength(0);
  });

  it('fails instead of looping when the service repeats a cursor', async () => {
    const page = {
      json: {
        message: 'success',
        data: [incident('a')],
        paging: { next: 'same', limit: 1, count: 1 },
      },
    };
    stub.enqueue(page, page, page);
    await expect(stub.client().incidents.list().toArray()).rejects.toBeInstanceOf(IncidentApiError);
    expect(stub.requests.length).toBeLessThanOrEqual(3);
  });
});

describe('resolutions: cursor pagination', () => {
  it('repeats the attempt filters on every page and stops on next null', async () => {
    stub.enqueue(
      {
        json: {
          message: 'success',
          data: [takedownAttempts],
          paging: { next: 'r2', limit: 1, count: 1 },
        },
      },
      {
        json: {
          message: 'success',
          data: [{ ...takedownAttempts, id: 'inc_2' }],
          paging: { next: null, limit: 1, count: 1 },
        },
      },
    );
    const items = await stub
      .client()
      .resolutions.list({
        limit: 1,
        reinitiatedAfter: 'success',
        minTakedownAttempts: 2,
        toDate: '2026-09-01',
      })
      .toArray();
    expect(items.map((i) => i.id)).toEqual(['inc_abc123', 'inc_2']);
    const filters = {
      limit: '1',
      reinitiatedAfter: 'success',
      minTakedownAttempts: '2',
      toDate: '2026-09-01',
    };
    expect(queryOf(0)).toEqual(filters);
    expect(queryOf(1)).toEqual({ ...filters, cursor: 'r2' });
    expect(stub.requests[0]?.url.pathname).toBe('/v1/incidents/resolutions');
  });

  it('reads a search answer (limit and count, no cursor) as a single page', async () => {
    stub.enqueue({
      json: { message: 'success', data: [takedownAttempts], paging: { limit: 25, count: 1 } },
    });
    const items = await stub
      .client({ clientId: 'sub_1' })
      .resolutions.list({ search: 'examp1e-login.com' })
      .toArray();
    expect(items).toHaveLength(1);
    expect(queryOf(0)).toEqual({ search: 'examp1e-login.com', clientId: 'sub_1' });
  });
});

describe('users: offset pagination', () => {
  const usersPage = (offset: number, count: number, total: number) => ({
    json: {
      message: 'success',
      data: Array.from({ length: count }, (_, i) => ({ ...userFull, id: `u${offset + i}` })),
      paging: { limit: 2, offset, count, total },
    },
  });

  it('walks offsets until offset + count reaches total, repeating filters', async () => {
    stub.enqueue(usersPage(0, 2, 5), usersPage(2, 2, 5), usersPage(4, 1, 5));
    const users = await stub
      .client()
      .users.list({ limit: 2, role: 'superuser', search: 'ana', clientId: 'c1' })
      .toArray();
    expect(users.map((u) => u.id)).toEqual(['u0', 'u1', 'u2', 'u3', 'u4']);
    expect(stub.requests.map((_, i) => queryOf(i))).toEqual([
      { limit: '2', role: 'superuser', search: 'ana', clientId: 'c1', offset: '0' },
      { limit: '2', role: 'superuser', search: 'ana', clientId: 'c1', offset: '2' },
      { limit: '2', role: 'superuser', search: 'ana', clientId: 'c1', offset: '4' },
    ]);
  });

  it('counts from the offset it asked for, even if the service echoes a wrong one', async () => {
    const echoZero = (count: number) => ({
      json: {
        message: 'success',
        data: Array.from({ length: count }, () => userFull),
        paging: { limit: 2, offset: 0, count, total: 3 },
      },
    });
    stub.enqueue(echoZero(2), echoZero(1));
    expect(await stub.client().users.list({ limit: 2 }).toArray()).toHaveLength(3);
    expect(stub.requests.map((_, i) => queryOf(i).offset)).toEqual(['0', '2']);
  });

  it('stops after one page when it already reaches total, and on an empty page', async () => {
    stub.enqueue(usersPage(0, 2, 2));
    expect(await stub.client().users.list().toArray()).toHaveLength(2);
    expect(stub.requests).toHaveLength(1);

    stub.reset();
    stub.enqueue(usersPage(0, 0, 10));
    expect(await stub.client().users.list().toArray()).toHaveLength(0);
    expect(stub.requests).toHaveLength(1);
  });
});
