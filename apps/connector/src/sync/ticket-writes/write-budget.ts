// Zendesk's Update Ticket limits, kept in the database so every instance shares them: requests
// per minute per account, updates per ten minutes per ticket, and the account-wide pause a 429's
// Retry-After asks for. Both writers count against them before they send anything: the drain plans
// its passes with them, and every direct update (../ticket-writer.ts) reserves its request here.
import { randomUUID } from 'node:crypto';
import { querySql, type TDatabase } from '@incident-desk/db';

export interface WriteLimits {
  /** Update Ticket requests per minute per account (Zendesk: 100). */
  accountPerMinute: number;
  /** Updates per ten minutes per ticket (Zendesk: 30 per user per ticket). */
  ticketPerTenMinutes: number;
}

/**
 * Zendesk's figures, less a margin: the head-room the writes an agent waits for may use
 * (PRIORITY_WRITE_LIMITS), and other writers on the account (agents' apps and triggers do not
 * count; other integrations do).
 */
export const ZENDESK_WRITE_LIMITS: WriteLimits = { accountPerMinute: 90, ticketPerTenMinutes: 28 };

/**
 * Zendesk's own figures, for the writes an agent waits for (a report's link, an action's tag swap,
 * a sidebar or admin action): the head-room the drain leaves under them is theirs, so they go
 * first without ever being planned out by a backlog of incident news.
 */
export const PRIORITY_WRITE_LIMITS: WriteLimits = {
  accountPerMinute: 100,
  ticketPerTenMinutes: 30,
};

const MINUTE = 60_000;
const BULK_PREFIX = 'many:';
const TEN_MINUTES = 600_000;

export interface BudgetState {
  /** Requests the account may still send now. */
  accountFree: number;
  /** When the oldest request in the minute's window leaves it (only meaningful when accountFree is 0). */
  accountFreesAt: Date;
  pausedUntil: Date | null;
}

// The account's pause and the first sending of each Update Ticket request of the last minute
// (update_many is another endpoint, governed by the job limit: not in the minute's count), in one
// statement: every pass reads it.
const BUDGET_SQL = `
  SELECT (SELECT paused_until FROM ticket_write_pause WHERE account_id = $1::uuid) AS "pausedUntil",
         ARRAY(SELECT (extract(epoch FROM min(sent_at)) * 1000)::float8
                 FROM ticket_write_log
                WHERE account_id = $1::uuid AND sent_at > $2::timestamptz
                  AND request_id NOT LIKE '${BULK_PREFIX}%'
                GROUP BY request_id) AS "sentAt"`;

export async function readBudget(
  db: TDatabase,
  accountId: string,
  limits: WriteLimits,
  now: Date,
): Promise<BudgetState> {
  const since = new Date(now.getTime() - MINUTE);
  const [row] = await querySql<{ pausedUntil: Date | null; sentAt: number[] }>(db, BUDGET_SQL, [
    accountId,
    since.toISOString(),
  ]);
  const times = (row?.sentAt ?? []).map(Number).sort((a, b) => a - b);
  const over = times.length - limits.accountPerMinute;
  const freesAt = over >= 0 ? new Date(times[over]! + MINUTE) : now;
  const pausedUntil = row?.pausedUntil ? new Date(row.pausedUntil) : null;
  return {
    accountFree: Math.max(0, limits.accountPerMinute - times.length),
    accountFreesAt: freesAt,
    pausedUntil: pausedUntil && pausedUntil > now ? pausedUntil : null,
  };
}

/** Per ticket: null when the ticket may be updated now, else when it may next be. */
export async function ticketsBlockedUntil(
  db: TDatabase,
  accountId: string,
  ticketIds: bigint[],
  limits: WriteLimits,
  now: Date,
): Promise<Map<bigint, Date>> {
  const rows = await db.prisma.ticketWriteLog.findMany({
    where: {
      accountId,
      ticketId: { in: ticketIds },
      sentAt: { gt: new Date(now.getTime() - TEN_MINUTES) },
    },
    select: { ticketId: true, sentAt: true },
    orderBy: { sentAt: 'asc' },
  });
  const byTicket = new Map<bigint, number[]>();
  for (const { ticketId, sentAt } of rows)
    if (ticketId !== null)
      byTicket.set(ticketId, [...(byTicket.get(ticketId) ?? []), sentAt.getTime()]);
  const blocked = new Map<bigint, Date>();
  for (const [ticketId, times] of byTicket) {
    const over = times.length - limits.ticketPerTenMinutes;
    if (over >= 0) blocked.set(ticketId, new Date(times[over]! + TEN_MINUTES));
  }
  return blocked;
}

/**
 * Counts one request against the budgets, before it is sent: a single update against the account's
 * Update Ticket minute and its ticket; an update_many against each of its tickets only. Answers the
 * request's id, to spare its tickets if it fails (releaseTicketBudget) or to name its job.
 */
export async function logRequest(
  db: TDatabase,
  accountId: string,
  ticketIds: bigint[],
  bulk: boolean,
  now: Date,
): Promise<string> {
  const requestId = `${bulk ? BULK_PREFIX : ''}${randomUUID()}`;
  await db.prisma.ticketWriteLog.createMany({
    data: ticketIds.map((ticketId) => ({ accountId, requestId, ticketId, sentAt: now })),
  });
  return requestId;
}

/** An update_many request's id once Zendesk answered with its job: the job's results name it. */
export async function nameRequestByJob(
  db: TDatabase,
  accountId: string,
  requestId: string,
  jobId: string,
): Promise<void> {
  await db.prisma.ticketWriteLog.updateMany({
    where: { accountId, requestId },
    data: { requestId: bulkRequestIdOfJob(jobId) },
  });
}

export function bulkRequestIdOfJob(jobId: string): string {
  return `${BULK_PREFIX}job:${jobId}`;
}

/**
 * Zendesk did not apply the request to these tickets (5xx, no answer, 429, refused): it counts
 * against a ticket's ten minutes only the updates it applied, so they get their update back. The
 * request still counts in the account's minute. All of the request's tickets when none are named.
 */
export async function releaseTicketBudget(
  db: TDatabase,
  accountId: string,
  requestId: string,
  ticketIds?: bigint[],
): Promise<void> {
  await db.prisma.ticketWriteLog.updateMany({
    where: { accountId, requestId, ...(ticketIds ? { ticketId: { in: ticketIds } } : {}) },
    data: { ticketId: null },
  });
}

/**
 * Updates found on the ticket whose requests had failed (their answers lost): counted against the
 * ticket's ten minutes again, not the account's minute, where their requests still count.
 */
export async function countLandedUpdates(
  db: TDatabase,
  accountId: string,
  ticketId: bigint,
  count: number,
  at: Date,
): Promise<void> {
  await db.prisma.ticketWriteLog.createMany({
    data: Array.from({ length: count }, () => ({
      accountId,
      requestId: `${BULK_PREFIX}${randomUUID()}`,
      ticketId,
      sentAt: at,
    })),
  });
}

/** One single update outside the drain: counted (the request's id), or when it may be asked again. */
export type TicketUpdateReservation = { requestId: string } | { notBefore: Date };

/**
 * One single update of one ticket outside the drain: counted now, before it is sent, when the
 * account's pause, its minute and the ticket's ten minutes allow it; otherwise nothing is counted
 * and the answer is when it may be asked again.
 */
export async function reserveTicketUpdate(
  db: TDatabase,
  accountId: string,
  ticketId: bigint,
  limits: WriteLimits,
  now: Date,
): Promise<TicketUpdateReservation> {
  const budget = await readBudget(db, accountId, limits, now);
  if (budget.pausedUntil) return { notBefore: budget.pausedUntil };
  if (budget.accountFree === 0) return { notBefore: budget.accountFreesAt };
  const blocked = await ticketsBlockedUntil(db, accountId, [ticketId], limits, now);
  const ticketFreesAt = blocked.get(ticketId);
  if (ticketFreesAt) return { notBefore: ticketFreesAt };
  return { requestId: await logRequest(db, accountId, [ticketId], false, now) };
}

/** A 429: nobody on the account writes before Retry-After has passed. */
/** Zendesk's account-wide rate limits are counted over a minute: none asks to wait longer. */
const ACCOUNT_WINDOW_SECONDS = 60;

/**
 * Whether a 429 on one ticket's update is that ticket's own limit (updates per user per ticket,
 * counted over 10 minutes): only it asks for a wait beyond a minute. It holds back that ticket
 * only; any other 429 pauses the account (pauseAccount).
 */
export function isTicketOwnLimit(retryAfterSeconds: number | undefined): boolean {
  return retryAfterSeconds !== undefined && retryAfterSeconds > ACCOUNT_WINDOW_SECONDS;
}

export async function pauseAccount(db: TDatabase, accountId: string, until: Date): Promise<void> {
  await db.prisma.ticketWritePause.upsert({
    where: { accountId },
    create: { accountId, pausedUntil: until, rateLimitedCount: 1 },
    update: { pausedUntil: until, rateLimitedCount: { increment: 1 } },
  });
}

/** Budget rows past every window (settled ticket changes go by retention, src/retention). */
export async function purgeOldBudget(db: TDatabase, now: Date): Promise<void> {
  await db.prisma.ticketWriteLog.deleteMany({
    where: { sentAt: { lt: new Date(now.getTime() - TEN_MINUTES) } },
  });
}
