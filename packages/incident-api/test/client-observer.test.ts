// The optional observer: told about every attempt by operation and status, and whether
// the client tries again; never failing the call itself.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IncidentCallObservation } from '../src';
import { detailedIncidentSparse } from './support/fixtures';
import { startStubServer, type StubServer } from './support/stub-server';

let stub: StubServer;
beforeAll(async () => {
  stub = await startStubServer();
});
afterAll(() => stub.close());
beforeEach(() => stub.reset());

describe('the call observer', () => {
  it('sees a 429 retried and the final answer, by operation', async () => {
    stub.enqueue(
      { status: 429, headers: { 'retry-after': '0' }, json: { message: 'slow down' } },
      { status: 200, json: { message: 'success', data: detailedIncidentSparse } },
    );
    const calls: IncidentCallObservation[] = [];
    const client = stub.client({
      retry: {},
      sleep: async () => undefined,
      observer: (call) => {
        calls.push(call);
        throw new Error('observer broke');
      },
    });
    await expect(client.incidents.retrieve('inc_abc123')).resolves.toMatchObject({
      id: 'inc_abc123',
    });
    expect(calls.map(({ durationMs: _, ...call }) => call)).toEqual([
      { operation: 'incidents.retrieve', method: 'GET', status: 429, retry: true },
      { operation: 'incidents.retrieve', method: 'GET', status: 200, retry: false },
    ]);
  });
});
