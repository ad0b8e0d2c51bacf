// incident.takedown_updated names the incident only (contract, Events): what changed is read from
// the incident's parts (the detail's blocklist listings and registrar, the takedown attempts, the
// snapshots) and compared with what the ticket has been told (counts on incident_link), so the
// note names only the news. The counts move in the transaction that records the event's change,
// with the link's row locked: two events of one incident never tell the same news twice, and a
// redelivered event (its change already recorded) moves nothing.
import type { TBlocklistListing, TTakedownAttempt } from '@incident-desk/incident-api';
import type { AccountContext } from '../../accounts';
import { isTransientFailure } from '../service-failure';
import type { TakedownNews } from '../../notes';
import type { LinkedTicket } from './incident-link-store';
import type { IncidentTakedownUpdatedEvent } from './incident-event';

/** What could be read of the incident's takedown; null for a part that could not be read. */
export interface TakedownParts {
  blocklists: TBlocklistListing[] | null;
  registrar: string | null;
  attempts: TTakedownAttempt[] | null;
  /** The snapshots' times. */
  snapshotTimes: Date[] | null;
}

/** What the ticket has been told, as incident_link keeps it. */
export interface NotedTakedown {
  listed: number;
  listings: number;
  attempts: number;
  attemptsEnded: number;
  /** The newest snapshot told of; null: none yet (snapshots before `since` are not news). */
  snapshotAt: Date | null;
  /** The link's creation: what the ticket already knew of when nothing was noted. */
  since: Date;
}

async function part<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    // the job's retry reads again; a part the service will not give (404, 403) is left out
    if (isTransientFailure(error)) throw error;
    return null;
  }
}

export async function readTakedownParts(
  ctx: AccountContext,
  event: IncidentTakedownUpdatedEvent,
  link: LinkedTicket,
): Promise<TakedownParts> {
  const incidents = ctx.incidents(event.clientId);
  const listId = link.incidentId;
  const [detail, attempts, snapshots] = await Promise.all([
    part(() => incidents.incidents.retrieve(link.reportRef ?? listId)),
    part(async () => {
      // a free-text search: only the entry whose id is the incident is taken
      const page = await incidents.resolutions.listPage({ search: listId });
      return page.data.find((item) => item.id === listId)?.takedownAttempts ?? null;
    }),
    part(async () => (await incidents.incidents.snapshots(listId)).snapshots),
  ]);
  return {
    blocklists: detail ? detail.blocklists : null,
    registrar: detail?.registrar?.name?.trim() || null,
    attempts,
    snapshotTimes: snapshots
      ? snapshots.map((snapshot) => new Date(snapshot.timestamp)).filter((at) => !isNaN(+at))
      : null,
  };
}

/** The news against what was noted, and the counts once it is told. */
export function takedownNews(
  parts: TakedownParts,
  noted: NotedTakedown,
): { news: TakedownNews; told: Omit<NotedTakedown, 'since'> } {
  const news: TakedownNews = {};
  const told = { ...noted };
  if (parts.blocklists) {
    const listed = parts.blocklists.filter((listing) => listing.status === 'listed');
    const submitted = parts.blocklists.filter((listing) => listing.status === 'submitted');
    if (listed.length > noted.listed) news.listed = { names: listed.map((l) => l.authority) };
    if (parts.blocklists.length > noted.listings && submitted.length > 0)
      news.submitted = { names: submitted.map((l) => l.authority) };
    told.listed = Math.max(noted.listed, listed.length);
    told.listings = Math.max(noted.listings, parts.blocklists.length);
  }
  if (parts.attempts) {
    const attempts = parts.attempts;
    if (attempts.length > noted.attempts)
      news.attemptsSent = {
        from: noted.attempts + 1,
        to: attempts.length,
        registrar: parts.registrar,
      };
    const ended = attempts
      .map((attempt, index) => ({ number: index + 1, outcome: attempt.outcome }))
      .filter(
        (attempt): attempt is { number: number; outcome: string } => attempt.outcome !== null,
      );
    if (ended.length > noted.attemptsEnded) news.attemptsEnded = ended.slice(noted.attemptsEnded);
    told.attempts = Math.max(noted.attempts, attempts.length);
    told.attemptsEnded = Math.max(noted.attemptsEnded, ended.length);
  }
  if (parts.snapshotTimes) {
    const after = (noted.snapshotAt ?? noted.since).getTime();
    const fresh = parts.snapshotTimes.filter((at) => at.getTime() > after);
    if (fresh.length > 0) {
      news.snapshots = fresh.length;
      told.snapshotAt = new Date(Math.max(...fresh.map((at) => at.getTime())));
    }
  }
  const { since: _, ...counts } = told;
  return { news, told: counts };
}
