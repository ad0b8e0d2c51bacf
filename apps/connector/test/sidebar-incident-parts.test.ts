// The takedown attempts shown for an incident come from a free-text resolutions search: only the
// entry whose id is the incident's own may be shown (issue 14, item 6).
import { describe, expect, it } from 'vitest';
import type { IncidentClient } from '@incident-desk/incident-api';
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
