// Sees each connector note the moment the Zendesk sandbox commits it (its ticket-change hook, in
// this process), and records when each event's note appeared, by the event ids each note names
// (a coalesced note names every event it covers).
import type { ZendeskSandbox } from '@incident-desk/zendesk-sandbox';
import { eventRefsInNote } from '../src/notes/incident-change-note';

export interface NoteWatch {
  /** performance.now() of the first note naming the event. */
  visibleAt(eventId: string): number | undefined;
  /** Notes naming the event (more than one is a duplicate). */
  notesOf(eventId: string): number;
  stop(): void;
}

/** Watches the notes of one account, or of several (event ids are unique across them). */
export function watchNotes(sandbox: ZendeskSandbox, subdomains: string | string[]): NoteWatch {
  const seenComments = new Map<string, Map<number, number>>(); // account -> ticket id -> comments looked at
  const firstSeen = new Map<string, number>();
  const counts = new Map<string, number>();
  for (const subdomain of typeof subdomains === 'string' ? [subdomains] : subdomains) {
    const account = sandbox.state.account(subdomain);
    if (!account) throw new Error(`no account ${subdomain}`);
    const seen = new Map<number, number>();
    for (const [ticketId, comments] of account.comments) seen.set(ticketId, comments.length);
    seenComments.set(subdomain, seen);
  }

  const stop = sandbox.state.onTicketChanged((changed, ticketId) => {
    const seen = seenComments.get(changed);
    if (!seen) return;
    const now = performance.now();
    const comments = sandbox.state.account(changed)?.comments.get(ticketId) ?? [];
    for (const comment of comments.slice(seen.get(ticketId) ?? 0)) {
      if (comment.public) continue;
      for (const eventId of eventRefsInNote(comment.body)) {
        if (!firstSeen.has(eventId)) firstSeen.set(eventId, now);
        counts.set(eventId, (counts.get(eventId) ?? 0) + 1);
      }
    }
    seen.set(ticketId, comments.length);
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
  /** Acknowledged events without a note. */
  lost: number;
  /** Acknowledged events named by more than one note. */
  doubled: number;
}

/** Every acknowledged event's note exactly once: what is missing is lost, what is repeated doubled. */
export function noteAccounting(
  notes: NoteWatch,
  acknowledgedIds: readonly string[],
): NoteAccounting {
  const applied = acknowledgedIds.filter((id) => notes.visibleAt(id) !== undefined).length;
  return {
    acknowledged: acknowledgedIds.length,
    applied,
    lost: acknowledgedIds.length - applied,
    doubled: acknowledgedIds.filter((id) => notes.notesOf(id) > 1).length,
  };
}

/** Resolves once every event has a note (true), or with false after `timeoutMs`. */
export async function untilNoted(
  notes: NoteWatch,
  eventIds: readonly string[],
  timeoutMs: number,
  intervalMs = 250,
): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  let waiting = [...eventIds];
  for (;;) {
    waiting = waiting.filter((id) => notes.visibleAt(id) === undefined);
    if (waiting.length === 0) return true;
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
