// Sees each connector write the moment the Zendesk sandbox commits it (its ticket-change hook, in
// this process), and records when each event's note appeared, by the event ids each write's audit
// names in its metadata (a coalesced write names every event it applies).
import type { ZendeskSandbox } from '@incident-desk/zendesk-sandbox';
import { eventRefsOfAudit } from '../src/sync/ticket-writes/write-metadata';

export interface NoteWatch {
  /** performance.now() of the first write naming the event. */
  visibleAt(eventId: string): number | undefined;
  /** Writes naming the event (more than one is a duplicate). */
  notesOf(eventId: string): number;
  stop(): void;
}

export function watchNotes(sandbox: ZendeskSandbox, subdomain: string): NoteWatch {
  const seenAudits = new Map<number, number>(); // ticket id -> audits already looked at
  const firstSeen = new Map<string, number>();
  const counts = new Map<string, number>();
  const account = sandbox.state.account(subdomain);
  if (!account) throw new Error(`no account ${subdomain}`);
  for (const [ticketId, audits] of account.audits) seenAudits.set(ticketId, audits.length);

  const stop = sandbox.state.onTicketChanged((changed, ticketId) => {
    if (changed !== subdomain) return;
    const now = performance.now();
    const audits = account.audits.get(ticketId) ?? [];
    for (const audit of audits.slice(seenAudits.get(ticketId) ?? 0)) {
      for (const eventId of eventRefsOfAudit({ metadata: { custom: audit.custom } })) {
        if (!firstSeen.has(eventId)) firstSeen.set(eventId, now);
        counts.set(eventId, (counts.get(eventId) ?? 0) + 1);
      }
    }
    seenAudits.set(ticketId, audits.length);
  });

  return {
    visibleAt: (eventId) => firstSeen.get(eventId),
    notesOf: (eventId) => counts.get(eventId) ?? 0,
    stop,
  };
}
