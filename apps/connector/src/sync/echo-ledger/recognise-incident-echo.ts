// Whether an incident.history_created is the echo of what the connector sent, decided in the
// event's job, never on the agent's path:
// - a report's own history (recordReportHistory): its message exactly, normalised: a short
//   confirmation must never swallow a longer analyst message;
// - an entry the event attributes to anyone but the client (an analyst, a partner, the system) is
//   never an echo, whatever its text;
// - a forwarded comment or the comment a report carried: the comment's text exactly, as the
//   service writes a comment's entry (the text, or "Comment: <text>"), normalised; each comment
//   absorbs one entry (the first), never a second one saying the same, and never one that only
//   contains it or is contained in it (a customer's email quoting an analyst, an analyst quoting
//   an agent);
// - any call of the connector's (an action, a forwarded comment too short to be matched by its
//   text; not a report's comment: the report was the call): the service's wording is not known, so
//   the incident's history is read; the event's own entry (with its message, dated nearest the
//   event), when it names no author other than the client (the connector acts as the client; an
//   analyst or the system is another) and is dated while the call was under way (within
//   ECHO_CLOCK_SKEW_MS), is its echo. One call absorbs one echo (echo_ref keeps the event, so it
//   applied again is still recognised); the history is read only when such a call is unabsorbed
//   around the event's time.
// While a call to the incident is under way, an entry not yet recognised waits for it
// (own-call-in-flight.ts), then is decided with what the settled call left.
import type { AccountContext } from '../../accounts';
import { normalizeText } from '../../notes';
import { isTransientFailure } from '../service-failure';
import type { ResolvedSyncDeps } from '../sync-deps';
import { isAttachmentsEntry } from './absorb-evidence-echo';
import { ECHO_CLOCK_SKEW_MS, ECHO_RETENTION_MS } from './echo-windows';
import { deferWhileOwnCallsInFlight } from './own-call-in-flight';

export const REPORT_OWN_ENTRY = "history entry the ticket's own report produced";
const OWN_COMMENT_ENTRY = 'history entry echoes a comment the connector posted';
const OWN_CALL_ENTRY = 'history entry echoes a request the connector made';

export interface HistoryEvent {
  /** Every id the incident goes by (its id, the report reference). */
  incidentIds: readonly string[];
  /** The event's reference (stable per event). */
  ref: string;
  occurredAt: Date;
  message: string;
  /** The entry's author classification when the event names one (`client`, `analyst`...). */
  authorType?: string | undefined;
  /** Which client's key reads the incident, and by which id. */
  clientId: string | undefined;
  readId: string;
}

/** Rows whose echo is recognised by the comment's text. */
const COMMENT_KINDS = ['incident_comment', 'report_comment'] as const;
/** Rows of calls of their own, whose echo may be recognised by its time. */
const CALL_KINDS = ['incident_comment', 'incident_action'] as const;
const isOneOf = (kinds: readonly string[], kind: string) => kinds.includes(kind);

/** What the ledger holds for an incident, read once per event. */
interface LedgerRow {
  id: string;
  kind: string;
  text: string | null;
  sentAt: Date;
  settledAt: Date | null;
  echoedAt: Date | null;
  echoRef: string | null;
}

/** Why the history entry is the connector's own doing, or null. May defer the job. */
export async function recogniseIncidentEcho(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  event: HistoryEvent,
): Promise<string | null> {
  // by origin first: someone else's entry is news, whatever it says
  if (event.authorType !== undefined && event.authorType !== 'client') return null;
  // one read of the incident's ledger: every analyst entry is judged by it, so it stays one
  const rows: LedgerRow[] = await deps.db.prisma.echoLedgerEntry.findMany({
    where: {
      accountId: ctx.accountId,
      target: { in: [...event.incidentIds] },
      kind: { in: ['report_history', ...COMMENT_KINDS, ...CALL_KINDS] },
    },
    orderBy: { sentAt: 'asc' },
    select: {
      id: true,
      kind: true,
      text: true,
      sentAt: true,
      settledAt: true,
      echoedAt: true,
      echoRef: true,
    },
  });
  const known = await recordedEcho(deps, ctx, event, rows);
  if (known !== null) return known;
  // not recognised while a call is under way: decided once it has settled (the job looks again)
  deferWhileOwnCallsInFlight(deps, rows, event.incidentIds);
  return null;
}

/** The entries the service writes for a comment: its text, or "Comment: <text>", normalised. */
function commentEntryForms(sent: string): string[] {
  const text = normalizeText(sent);
  return [text, normalizeText(`Comment: ${text}`)];
}

async function recordedEcho(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  event: HistoryEvent,
  rows: readonly LedgerRow[],
): Promise<string | null> {
  const text = normalizeText(event.message);
  if (text === '') return null;
  const since = deps.now().getTime() - ECHO_RETENTION_MS;
  const recent = rows.filter((row) => row.sentAt.getTime() >= since);
  // Events rule 4: the confirmation of the report this ticket made, a no-op once linked
  if (recent.some((row) => row.kind === 'report_history' && row.text === text))
    return REPORT_OWN_ENTRY;
  const echoed = recent.filter(
    (row) =>
      isOneOf(COMMENT_KINDS, row.kind) &&
      row.text !== null &&
      commentEntryForms(row.text).includes(text) &&
      (row.echoedAt === null || row.echoRef === event.ref),
  );
  if (echoed.length > 0) {
    // this event, applied again, or the first comment still waiting for its echo: absorbed by it
    const mine = echoed.find((row) => row.echoRef === event.ref);
    if (mine) return OWN_COMMENT_ENTRY;
    for (const row of echoed) {
      // claimed with a conditional update: two echoes handled at once absorb two comments
      const claimed = await deps.db.prisma.echoLedgerEntry.updateMany({
        where: { id: row.id, echoedAt: null },
        data: { echoedAt: deps.now(), echoRef: event.ref },
      });
      if (claimed.count === 1) return OWN_COMMENT_ENTRY;
    }
  }
  // an upload's entry is the evidence rule's (absorbEvidenceEcho), never a call's echo
  if (isAttachmentsEntry(text)) return null;
  return (await absorbCallEcho(deps, ctx, event, text, rows)) ? OWN_CALL_ENTRY : null;
}

async function absorbCallEcho(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  event: HistoryEvent,
  text: string,
  rows: readonly LedgerRow[],
): Promise<boolean> {
  const calls = rows.filter((row) => isOneOf(CALL_KINDS, row.kind));
  if (calls.some((row) => row.echoRef === event.ref)) return true; // this event, applied again
  const at = event.occurredAt.getTime();
  const candidates = calls.filter(
    (row) =>
      row.echoedAt === null &&
      row.settledAt !== null &&
      row.sentAt.getTime() <= at + ECHO_CLOCK_SKEW_MS &&
      row.settledAt.getTime() >= at - ECHO_CLOCK_SKEW_MS,
  );
  if (candidates.length === 0) return false;
  const entry = await ownLookingEntry(ctx, event, text);
  if (entry === null) return false;
  // a call the entry fell within exactly comes before one it is near only by the allowed skew
  const ranked = candidates
    .flatMap((call) => {
      const fit = fitOf(call, entry);
      return fit === null ? [] : [{ call, fit }];
    })
    .sort((a, b) => a.fit - b.fit);
  for (const { call } of ranked) {
    // claimed with a conditional update: two echoes handled at once absorb two calls
    const claimed = await deps.db.prisma.echoLedgerEntry.updateMany({
      where: { id: call.id, echoedAt: null },
      data: { echoedAt: deps.now(), echoRef: event.ref },
    });
    if (claimed.count === 1) return true;
  }
  return false;
}

/** 0 when the entry is dated within the call, the distance when only within the skew, else null. */
function fitOf(call: { sentAt: Date; settledAt: Date | null }, time: number): number | null {
  const from = call.sentAt.getTime();
  const to = (call.settledAt ?? call.sentAt).getTime();
  const gap = time < from ? from - time : time > to ? time - to : 0;
  return gap <= ECHO_CLOCK_SKEW_MS ? gap : null;
}

/**
 * The time of the event's own entry (of the entries with its message, the one dated nearest the
 * event: the service dates both alike), or null when it names an author other than the client or
 * the history cannot be read.
 */
async function ownLookingEntry(
  ctx: AccountContext,
  event: HistoryEvent,
  text: string,
): Promise<number | null> {
  let history: { timestamp: unknown; message: string; author?: unknown }[];
  try {
    history = (await ctx.incidents(event.clientId).incidents.retrieve(event.readId)).history;
  } catch (error) {
    if (isTransientFailure(error)) throw error;
    return null; // not readable: the entry is shown (never hidden on a guess)
  }
  const at = event.occurredAt.getTime();
  let nearest: { time: number; byOther: boolean } | null = null;
  for (const entry of history) {
    if (normalizeText(entry.message) !== text) continue;
    const time = new Date(String(entry.timestamp)).getTime();
    if (Number.isNaN(time)) continue;
    // of entries equally near, the first the history lists (the newest)
    if (nearest === null || Math.abs(time - at) < Math.abs(nearest.time - at))
      nearest = { time, byOther: namesAnotherAuthor(entry.author) };
  }
  return nearest === null || nearest.byOther ? null : nearest.time;
}

/**
 * The entry names an author that is not the client. The shape of the author classification is not
 * specified: an entry without one is judged by its time alone.
 */
function namesAnotherAuthor(author: unknown): boolean {
  if (typeof author !== 'object' || author === null) return false;
  const type = (author as { type?: unknown }).type;
  return typeof type === 'string' && type !== 'client';
}
