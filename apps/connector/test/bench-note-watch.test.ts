// The benchmarks' accounting of notes (bench/note-watch.ts): which events a ticket write applied
// (its audit's metadata), over several accounts at once, and what counts as lost or doubled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createZendeskSandbox,
  seedDemo,
  type DemoSeed,
  type ZendeskSandbox,
} from '@incident-desk/zendesk-sandbox';
import { noteAccounting, untilNoted, watchNotes } from '../bench/note-watch';
import { writeMetadata } from '../src/sync/ticket-writes/write-metadata';

describe('watchNotes over several accounts', () => {
  let sandbox: ZendeskSandbox;
  let url: string;
  let close: () => Promise<void>;
  const seeds = new Map<string, DemoSeed>();

  beforeAll(async () => {
    sandbox = createZendeskSandbox({ searchLagMs: 0 });
    for (const subdomain of ['alpha', 'beta', 'gamma'])
      seeds.set(subdomain, seedDemo(sandbox, subdomain));
    ({ url, close } = await sandbox.listen(0));
  });
  afterAll(() => close());

  /** A ticket write that applies `events`, as the account writer makes one: a note, its audit's metadata. */
  const write = async (subdomain: string, events: string[]) => {
    const seed = seeds.get(subdomain)!;
    const token = sandbox.issueToken(subdomain, seed.adminId, ['read', 'write']);
    const response = await fetch(
      `${url}/_z/${subdomain}/api/v2/tickets/${seed.ticketIds[0]}.json`,
      {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          ticket: {
            comment: { body: 'Status: Case building', public: false },
            metadata: writeMetadata({ ref: `w-${events.join('-')}`, events }),
          },
        }),
      },
    );
    expect(response.status).toBe(200);
  };

  it('counts the internal notes of the accounts watched, from the moment it starts', async () => {
    await write('alpha', ['evt_before']);
    const notes = watchNotes(sandbox, ['alpha', 'beta']);
    try {
      await write('alpha', ['evt_a1', 'evt_a2']);
      await write('beta', ['evt_b1']);
      await write('beta', ['evt_b1']); // written twice
      await write('gamma', ['evt_g1']); // not watched

      expect(notes.visibleAt('evt_a1')).toBeTypeOf('number');
      expect(notes.visibleAt('evt_before')).toBeUndefined();
      expect(notes.visibleAt('evt_g1')).toBeUndefined();
      expect(
        noteAccounting(notes, ['evt_a1', 'evt_a2', 'evt_b1', 'evt_g1', 'evt_missing']),
      ).toEqual({
        acknowledged: 5,
        applied: 3,
        absorbed: 0,
        lost: 2,
        lostIds: ['evt_g1', 'evt_missing'],
        doubled: 1,
      });
      // a takedown update settled without news is accounted for, not lost
      expect(
        noteAccounting(notes, ['evt_a1', 'evt_g1', 'evt_missing'], new Set(['evt_missing'])),
      ).toMatchObject({ applied: 1, absorbed: 1, lost: 1, lostIds: ['evt_g1'] });
    } finally {
      notes.stop();
    }
  });

  it('one account by name, as before', async () => {
    const notes = watchNotes(sandbox, 'gamma');
    try {
      await write('gamma', ['evt_g2']);
      expect(noteAccounting(notes, ['evt_g2'])).toEqual({
        acknowledged: 1,
        applied: 1,
        absorbed: 0,
        lost: 0,
        lostIds: [],
        doubled: 0,
      });
    } finally {
      notes.stop();
    }
  });

  it('refuses an account the sandbox does not have', () => {
    expect(() => watchNotes(sandbox, ['alpha', 'nowhere'])).toThrow('no account nowhere');
  });

  it('untilNoted: true once every event has a note, false when the time is up', async () => {
    const notes = watchNotes(sandbox, 'beta');
    try {
      const waiting = untilNoted(notes, ['evt_b9'], 10_000, 10);
      await write('beta', ['evt_b9']);
      await expect(waiting).resolves.toBe(true);
      await expect(untilNoted(notes, ['evt_b9', 'evt_never'], 50, 10)).resolves.toBe(false);
    } finally {
      notes.stop();
    }
  });
});
