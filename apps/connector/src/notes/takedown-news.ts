// What an incident.takedown_updated brought that the ticket has not been told yet, as data
// (sync/incident-events/takedown-news.ts finds it); the note names only this.

// A type, not an interface: it is stored as JSON (pending_ticket_change.entry).
export type TakedownNews = {
  /** Every listing now live, when more are live than the ticket was told of. */
  listed?: { names: string[] } | undefined;
  /** The submissions still waiting for the partner, when new ones were made. */
  submitted?: { names: string[] } | undefined;
  /** Attempts started since the ticket was told (numbered from 1, oldest first). */
  attemptsSent?: { from: number; to: number; registrar: string | null } | undefined;
  /** Attempts that ended since the ticket was told, with their outcome (`success`, `failed`...). */
  attemptsEnded?: { number: number; outcome: string }[] | undefined;
  /** Snapshots taken since the ticket was told. */
  snapshots?: number | undefined;
};

export function hasNews(news: TakedownNews): boolean {
  return (
    news.listed !== undefined ||
    news.submitted !== undefined ||
    news.attemptsSent !== undefined ||
    (news.attemptsEnded?.length ?? 0) > 0 ||
    (news.snapshots ?? 0) > 0
  );
}
