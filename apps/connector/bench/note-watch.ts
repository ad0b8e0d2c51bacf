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

export function watchNotes(sandbox: ZendeskSandbox, subdomain: string): NoteWatch {
  const seenComments = new Map<number, number>(); // ticket id -> comments already looked at
  const firstSeen = new Map<string, number>();
  const counts = new Map<string, number>();
  const account = sandbox.state.account(subdomain);
  if (!account) throw new Error(`no account ${subdomain}`);
  for (const [ticketId, comments] of account.comments) seenComments.set(ticketId, comments.length);

  const stop = sandbox.state.onTicketChanged((changed, ticketId) => {
    if (changed !== subdomain) return;
    const now = performance.now();
    const comments = account.comments.get(ticketId) ?? [];
    for (const comment of comments.slice(seenComments.get(ticketId) ?? 0)) {
      if (comment.public) continue;
      for (const eventId of eventRefsInNote(comment.body)) {
        if (!firstSeen.has(eventId)) firstSeen.set(eventId, now);
        counts.set(eventId, (counts.get(eventId) ?? 0) + 1);
      }
    }
    seenComments.set(ticketId, comments.length);
  });

  return {
    visibleAt: (eventId) => firstSeen.get(eventId),
    notesOf: (eventId) => counts.get(eventId) ?? 0,
    stop,
  };
}
