// What the connector sends to an incident (a forwarded comment, a takedown / monitoring / mark-safe
// request) comes back as incident.history_created in the service's own words ("Comment: ok thx",
// "Takedown requested by client"): no news for the ticket that sent it. The service does not say
// which entries a call produced, so the incident's history is read just before and just after the
// call, and the entries that appeared in between are recorded as the connector's own (exactly, as
// the report's own history is) for applyLinkedEvent to skip. The service emits the event at once,
// so its job can run before the after-read has recorded anything: an OwnIncidentCall row, written
// before the call and deleted once the entries are recorded (or the call failed), tells the event
// handler of any process to wait for them (sync/incident-events/own-call-in-flight.ts). A caller
// that dies leaves its row behind; it stops counting after OWN_CALL_IN_FLIGHT_MS.
// Best effort: when a read or a write of the database fails the call still goes out, and only its
// result or error comes back (never the database's, which would read as the service's answer);
// its echo may then show as a note, as it may when the call and the after-read outlast
// OWN_CALL_IN_FLIGHT_MS or the event's last retry.
// An entry that names an author other than the client (an analyst, the system) is never taken for
// ours, though it landed in between; the author classification is not specified, so an entry
// without one is judged by timing alone.
import type { TDatabase } from '@incident-desk/db';
import type { AccountContext } from '../accounts/account-context';
import { logger } from '../log/logger';
import { recordReportOwnHistory } from './report-own-history';

type HistoryRead = Set<string> | null;

export async function sendRecordingOwnHistory<T>(
  db: TDatabase,
  ctx: AccountContext,
  incidentId: string,
  send: () => Promise<T>,
): Promise<T> {
  const before = await readHistory(ctx, incidentId);
  // without the before-read nothing will be recorded: no event need wait for it
  if (before === null) return send();
  const call = await markCallInFlight(db, ctx.accountId, incidentId).catch((error: unknown) => {
    logger.warn('own call not marked in flight; its echo may show as a note', { error });
    return null;
  });
  try {
    const result = await send();
    const after = await readEntries(ctx, incidentId);
    if (after === null) return result;
    const added = after.filter((entry) => !before.has(entryKey(entry)) && !entry.byOther);
    await recordReportOwnHistory(
      db,
      ctx.accountId,
      incidentId,
      added.map((entry) => entry.message),
    ).catch((error: unknown) => {
      logger.warn('own history not recorded; its echo may show as a note', { error });
    });
    return result;
  } finally {
    // a row left behind holds events back only until it is OWN_CALL_IN_FLIGHT_MS old: not worth
    // hiding the call's own result or error for
    if (call !== null)
      await db.prisma.ownIncidentCall.deleteMany({ where: { id: call } }).catch(() => undefined);
  }
}

/** An own call's row older than this belongs to a caller that stopped: events no longer wait. */
export const OWN_CALL_IN_FLIGHT_MS = 60_000;

async function markCallInFlight(
  db: TDatabase,
  accountId: string,
  incidentId: string,
): Promise<string> {
  // rows callers left behind when they died; they no longer count
  await db.prisma.ownIncidentCall.deleteMany({
    where: { accountId, startedAt: { lt: new Date(Date.now() - OWN_CALL_IN_FLIGHT_MS) } },
  });
  const row = await db.prisma.ownIncidentCall.create({
    data: { accountId, incidentId },
    select: { id: true },
  });
  return row.id;
}

interface Entry {
  timestamp: string;
  message: string;
  /** The entry names an author that is not the client (the connector acts as the client). */
  byOther: boolean;
}

function entryKey(entry: Entry): string {
  return `${entry.timestamp}\u0000${entry.message}`;
}

async function readHistory(ctx: AccountContext, incidentId: string): Promise<HistoryRead> {
  const entries = await readEntries(ctx, incidentId);
  return entries === null ? null : new Set(entries.map(entryKey));
}

async function readEntries(ctx: AccountContext, incidentId: string): Promise<Entry[] | null> {
  try {
    const detail = await ctx.incidents().incidents.retrieve(incidentId);
    return detail.history.map((entry) => ({
      timestamp: String(entry.timestamp),
      message: entry.message,
      byOther: namesAnotherAuthor((entry as { author?: unknown }).author),
    }));
  } catch {
    return null;
  }
}

function namesAnotherAuthor(author: unknown): boolean {
  if (typeof author !== 'object' || author === null) return false;
  const type = (author as { type?: unknown }).type;
  return typeof type === 'string' && type !== 'client';
}
