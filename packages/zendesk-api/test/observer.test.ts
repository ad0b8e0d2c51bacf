// The optional observer: told about every attempt, with the endpoint's ids replaced,
// the status, and whether the client tries again; never failing the call itself.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ZendeskCallObservation } from '../src';
import { clientFor } from './support/client-fixture';
import { FakeZendesk } from './support/fake-zendesk';

let fake: FakeZendesk;
beforeEach(async () => {
  fake = await FakeZendesk.start();
});
afterEach(async () => {
  expect(fake.unexpected).toEqual([]);
  await fake.close();
});

describe('the call observer', () => {
  it('sees a 429 retried, a 401 before the token renewal, and the final answer', async () => {
    fake.on(
      'GET',
      '/api/v2/tickets/12345.json',
      { status: 429, headers: { 'retry-after': '0' }, json: {} },
      { status: 401, json: { error: 'invalid_token' } },
      { json: { ticket: { id: 12345 } } },
    );
    const calls: ZendeskCallObservation[] = [];
    const { client } = clientFor(fake, { observer: (call) => calls.push(call) });

    await client.tickets.show(12345);

    expect(calls.map(({ durationMs: _, ...call }) => call)).toEqual([
      { method: 'GET', endpoint: '/api/v2/tickets/{id}.json', status: 429, retry: true },
      { method: 'GET', endpoint: '/api/v2/tickets/{id}.json', status: 401, retry: true },
      { method: 'GET', endpoint: '/api/v2/tickets/{id}.json', status: 200, retry: false },
    ]);
    expect(calls.every((call) => call.durationMs >= 0)).toBe(true);
  });

  it('replaces long ids holding digits, keeps names, and never fails a call by throwing', async () => {
    fake.on('GET', '/api/v2/job_statuses/8b726e606741012ffc2d782bcb7848fe.json', {
      json: { job_status: { id: '8b726e606741012ffc2d782bcb7848fe', status: 'completed' } },
    });
    const endpoints: string[] = [];
    const { client } = clientFor(fake, {
      observer: (call) => {
        endpoints.push(call.endpoint);
        throw new Error('observer broke');
      },
    });
    await expect(
      client.jobStatuses.show('8b726e606741012ffc2d782bcb7848fe'),
    ).resolves.toMatchObject({
      status: 'completed',
    });
    expect(endpoints).toEqual(['/api/v2/job_statuses/{id}.json']);
  });
});
