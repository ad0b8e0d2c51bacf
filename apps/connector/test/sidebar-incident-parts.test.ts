// The takedown attempts shown for an incident come from a free-text resolutions search: only the
// entry whose id is the incident's own may be shown. A part that failed says why.
import { describe, expect, it } from 'vitest';
import {
  RateLimitError,
  TemporarilyUnavailableError,
  type IncidentClient,
} from '@incident-desk/incident-api';
import { readIncidentParts } from '../src/sidebar-api/incident-parts';

function incidentsListing(entries: { id: string; takedownAttempts: unknown[] }[]) {
  return {
    incidents: {
      retrieve: async (id: string) => ({ id, clientId: 'cl_parent', status: 'pending_review' }),
      snapshots: async () => ({ snapshots: [] }),
    },
    resolutions: { listPage: async () => ({ data: entries }) },
    usage: { retrieve: async () => ({ remainingCredits: 5 }) },
  } as unknown as IncidentClient;
}

describe('takedown attempts of the sidebar view', () => {
  it('takes the entry whose id is the incident, wherever the search lists it', async () => {
    const parts = await readIncidentParts(
      incidentsListing([
        { id: 'inc_10', takedownAttempts: [{ id: 'other' }] },
        { id: 'inc_1', takedownAttempts: [{ id: 'mine' }] },
      ]),
      'inc_1',
    );
    expect(parts.takedownAttempts).toMatchObject({
      id: 'inc_1',
      takedownAttempts: [{ id: 'mine' }],
    });
  });

  it('shows none, marked not found, when the search lists only other incidents', async () => {
    const parts = await readIncidentParts(
      incidentsListing([{ id: 'inc_10', takedownAttempts: [{ id: 'other' }] }]),
      'inc_1',
    );
    expect(parts.takedownAttempts).toBeNull();
    expect(parts.unavailable).toEqual([{ part: 'takedownAttempts', reason: 'not_found' }]);
  });
});

describe('parts the service would not give', () => {
  const failing = (error: Error) =>
    ({
      incidents: {
        retrieve: async () => Promise.reject(error),
        snapshots: async () => ({ snapshots: [] }),
      },
      resolutions: { listPage: async () => ({ data: [] }) },
      usage: { retrieve: async () => ({ remainingCredits: 5 }) },
    }) as unknown as IncidentClient;
  const answer = (status: number, headers: Record<string, string> = {}) => ({
    status,
    body: { message: 'slow down' },
    headers: new Headers(headers),
    requestId: undefined,
    operation: 'incidents.retrieve',
  });

  it('tells a rate limit (429) from an outage, with when to retry', async () => {
    const parts = await readIncidentParts(
      failing(new RateLimitError(answer(429, { 'retry-after': '17' }))),
      'inc_1',
    );
    expect(parts.incident).toBeNull();
    expect(parts.unavailable).toContainEqual({
      part: 'incident',
      reason: 'rate_limited',
      retryAfterSeconds: 17,
    });
  });

  it('says rate limited without a time when the 429 had no Retry-After', async () => {
    const parts = await readIncidentParts(failing(new RateLimitError(answer(429))), 'inc_1');
    expect(parts.unavailable).toContainEqual({ part: 'incident', reason: 'rate_limited' });
  });

  it('calls a 503 temporarily unavailable', async () => {
    const parts = await readIncidentParts(
      failing(new TemporarilyUnavailableError(answer(503, { 'retry-after': '5' }))),
      'inc_1',
    );
    expect(parts.unavailable).toContainEqual({
      part: 'incident',
      reason: 'temporarily_unavailable',
    });
  });
});
