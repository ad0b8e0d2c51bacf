// Sees each connector note the moment the Zendesk sandbox commits it (its ticket-change hook, in
// this process), and records when each event's note appeared, by the "Event: <id>" line every
// event note ends with.
import type { ZendeskSandbox } from '@incident-desk/zendesk-sandbox';

export interface NoteWatch {
  /** performance.now() of the first note naming the event. */
  visibleAt(eventId: string): number | undefined;
  /** Notes naming the event (more than one is a duplicate). */
  notesOf(eventId: string): number;
  stop(): void;
}

const EVENT_LINE = /^Event: (\S+)$/m;

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
      const eventId = EVENT_LINE.exec(comment.body)?.[1];
      if (!eventId) continue;
      if (!firstSeen.has(eventId)) firstSeen.set(eventId, now);
      counts.set(eventId, (counts.get(eventId) ?? 0) + 1);
    }
    seenComments.set(ticketId, comments.length);
  });

  return {
    visibleAt: (eventId) => firstSeen.get(eventId),
    notesOf: (eventId) => counts.get(eventId) ?? 0,
    stop,
  };
}
