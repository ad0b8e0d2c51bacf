import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  isJobResultSuccess,
  ZendeskError,
  ZendeskRequestValidationError,
  ZendeskServerError,
} from '../src';
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

const queued = {
  id: 'job-1',
  url: 'https://x/api/v2/job_statuses/job-1.json',
  status: 'queued',
  total: 2,
  progress: 0,
  results: null,
};

describe('tickets.updateMany', () => {
  it('PUTs a tickets array of individual changes and answers the queued job status', async () => {
    fake.on('PUT', '/api/v2/tickets/update_many.json', { json: { job_status: queued } });
    const { client } = clientFor(fake);

    const job = await client.tickets.updateMany([
      { id: 1, comment: { body: 'one', public: false }, custom_fields: [{ id: 9, value: 'a' }] },
      { id: 2, additional_tags: ['x'], status: 'open' },
    ]);

    expect(job.id).toBe('job-1');
    expect(fake.requests[0]?.json()).toEqual({
      tickets: [
        { id: 1, comment: { body: 'one', public: false }, custom_fields: [{ id: 9, value: 'a' }] },
        { id: 2, additional_tags: ['x'], status: 'open' },
      ],
    });
  });

  it('refuses an empty list, more than 100 tickets, and an item without an id before sending', async () => {
    const { client } = clientFor(fake);
    await expect(client.tickets.updateMany([])).rejects.toBeInstanceOf(ZendeskError);
    const many = Array.from({ length: 101 }, (_, i) => ({ id: i + 1, status: 'open' as const }));
    await expect(client.tickets.updateMany(many)).rejects.toBeInstanceOf(ZendeskError);
    await expect(
      client.tickets.updateMany([{ status: 'open' } as unknown as { id: number }]),
    ).rejects.toBeInstanceOf(ZendeskRequestValidationError);
    expect(fake.requests).toHaveLength(0);
  });

  it('does not repeat the PUT after a 5xx: the job may have been queued', async () => {
    fake.on('PUT', '/api/v2/tickets/update_many.json', { status: 503, json: { error: 'down' } });
    const { client } = clientFor(fake);
    await expect(client.tickets.updateMany([{ id: 1, status: 'open' }])).rejects.toBeInstanceOf(
      ZendeskServerError,
    );
    expect(fake.requests).toHaveLength(1);
  });
});

describe('jobStatuses', () => {
  it('waitFor follows the job until it completes and returns per-ticket results', async () => {
    fake.on(
      'GET',
      '/api/v2/job_statuses/job-1.json',
      { json: { job_status: { ...queued, status: 'working', progress: 1 } } },
      {
        json: {
          job_status: {
            ...queued,
            status: 'completed',
            progress: 2,
            results: [
              { id: 1, action: 'update', success: true, status: 'Updated' },
              { id: 2, error: 'TicketUpdateFailed', details: 'closed' },
            ],
          },
        },
      },
    );
    const { client } = clientFor(fake);
    const slept: number[] = [];

    const done = await client.jobStatuses.waitFor(queued, {
      pollIntervalMs: 250,
      sleep: async (ms) => {
        slept.push(ms);
      },
    });

    expect(done.status).toBe('completed');
    expect(done.results?.map(isJobResultSuccess)).toEqual([true, false]);
    expect(slept).toEqual([250, 250]);
    expect(fake.requests.map((r) => r.path)).toEqual([
      '/api/v2/job_statuses/job-1.json',
      '/api/v2/job_statuses/job-1.json',
    ]);
  });

  it('waitFor gives up with a clear error when the job never finishes', async () => {
    fake.on('GET', '/api/v2/job_statuses/job-1.json', { json: { job_status: queued } });
    const { client } = clientFor(fake);
    await expect(
      client.jobStatuses.waitFor('job-1', { maxWaitMs: 0, sleep: async () => {} }),
    ).rejects.toThrow(/job job-1 is still queued/);
  });
});
