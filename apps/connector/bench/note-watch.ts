// Sees each connector write the moment the Zendesk sandbox commits it (its ticket-change hook, in
// this process), and records when each event's note appeared, by the event ids each write's audit
// names in its metadata (a coalesced write names every event it applies).
import type { ZendeskSandbox } from '@incident-desk/zendesk-sandbox';
import { whileProgressing } from '../../../scripts/bench-support';
import { eventRefsOfAudit } from '../src/sync/ticket-writes/write-metadata';

export interface NoteWatch {
  /** performance.now() of the first write naming the event. */
  visibleAt(eventId: string): number | undefined;
  /** Writes naming the event (more than one is a duplicate). */
  notesOf(eventId: string): number;
  stop(): void;
}

/** Watches the notes of one account, or of several (event ids are unique across them). */
export function watchNotes(sandbox: ZendeskSandbox, subdomains: string | string[]): NoteWatch {
  const seenAudits = new Map<string, Map<number, number>>(); // account -> ticket id -> audits looked at
  const firstSeen = new Map<string, number>();
  const counts = new Map<string, number>();
  for (const subdomain of typeof subdomains === 'string' ? [subdomains] : subdomains) {
    const account = sandbox.state.account(subdomain);
    if (!account) throw new Error(`no account ${subdomain}`);
    const seen = new Map<number, number>();
    for (const [ticketId, audits] of account.audits) seen.set(ticketId, audits.length);
    seenAudits.set(subdomain, seen);
  }

  const stop = sandbox.state.onTicketChanged((changed, ticketId) => {
    const seen = seenAudits.get(changed);
    if (!seen) return;
    const now = performance.now();
    const audits = sandbox.state.account(changed)?.audits.get(ticketId) ?? [];
    for (const audit of audits.slice(seen.get(ticketId) ?? 0)) {
      for (const eventId of eventRefsOfAudit({ metadata: { custom: audit.custom } })) {
        if (!firstSeen.has(eventId)) firstSeen.set(eventId, now);
        counts.set(eventId, (counts.get(eventId) ?? 0) + 1);
      }
    }
    seen.set(ticketId, audits.length);
  });

  return {
    visibleAt: (eventId) => firstSeen.get(eventId),
    notesOf: (eventId) => counts.get(eventId) ?? 0,
    stop,
  };
}

export interface NoteAccounting {
  acknowledged: number;
  /** Acknowledged events whose note landed. */
  applied: number;
  /** Acknowledged takedown updates with nothing new, settled without a note (absorbed-changes.ts). */
  absorbed: number;
  /** Acknowledged events neither noted nor absorbed. */
  lost: number;
  /** The first lost events' ids, to look them up. */
  lostIds: string[];
  /** Acknowledged events named by more than one note. */
  doubled: number;
}

/** Every acknowledged event's note exactly once: what is missing is lost, what is repeated doubled. */
export function noteAccounting(
  notes: NoteWatch,
  acknowledgedIds: readonly string[],
  absorbedIds: ReadonlySet<string> = new Set(),
): NoteAccounting {
  const unnoted = acknowledgedIds.filter((id) => notes.visibleAt(id) === undefined);
  const lost = unnoted.filter((id) => !absorbedIds.has(id));
  return {
    acknowledged: acknowledgedIds.length,
    applied: acknowledgedIds.length - unnoted.length,
    absorbed: unnoted.length - lost.length,
    lost: lost.length,
    lostIds: lost.slice(0, 10),
    doubled: acknowledgedIds.filter((id) => notes.notesOf(id) > 1).length,
  };
}

/**
 * Resolves once every event has a note (true), or with false once none of them got its note for
 * `stallMs`: a slow machine's notes keep landing, a lost one never does.
 */
export async function untilNoted(
  notes: NoteWatch,
  eventIds: readonly string[],
  stallMs: number,
  intervalMs = 250,
  what = 'notes landed',
): Promise<boolean> {
  let waiting = [...eventIds];
  return whileProgressing({
    what,
    stallMs,
    intervalMs,
    probe: async () => {
      waiting = waiting.filter((id) => notes.visibleAt(id) === undefined);
      const count = eventIds.length - waiting.length;
      return { done: waiting.length === 0, count, of: eventIds.length };
    },
  });
}
