// How the accounts' ticket writes are doing, read from the writer's records: the ongoing failure
// (account_health, write-health-recorder.ts) and the changes still waiting (pending_ticket_change,
// counted through its partial index of unsent rows). One account for its admin page; the accounts
// in trouble for /healthz's operator details and the metrics.
import {
  ACCESS_CAUSES,
  TICKET_WRITE_CAUSES,
  type TicketWriteFailure,
  type TicketWriteHealth,
  type TTicketWriteCause,
  type TTicketWriteState,
} from '@incident-desk/admin-contract';
import type { TDatabase } from '@incident-desk/db';

export interface WriteHealthSettings {
  now: () => Date;
  /** A change waiting longer than this makes its account late. */
  lateAfterSeconds: number;
}

interface FailureColumns {
  failingSince: Date | null;
  failedAt: Date | null;
  cause: string | null;
  status: number | null;
  detail: string | null;
}

interface Reading {
  failure: FailureColumns | null;
  waiting: number;
  oldestWaitingAt: Date | null;
}

const isCause = (cause: string | null): cause is TTicketWriteCause =>
  (TICKET_WRITE_CAUSES as readonly (string | null)[]).includes(cause);

/**
 * The ongoing failure, if any: while a change that waited at its latest failure still waits. Once
 * those changes are gone (their note found on the ticket after all, or refused for good) it is
 * over, and changes recorded since are no sign of it; unless its cause needs an administrator,
 * which stands until a write succeeds or the account is authorised again.
 */
function ongoingFailure(reading: Reading): TicketWriteFailure | null {
  const row = reading.failure;
  if (!row?.failingSince || !isCause(row.cause)) return null;
  const failedAt = row.failedAt ?? row.failingSince;
  const heldBack =
    reading.oldestWaitingAt !== null && reading.oldestWaitingAt.getTime() <= failedAt.getTime();
  if (!heldBack && !ACCESS_CAUSES.includes(row.cause)) return null;
  return {
    cause: row.cause,
    status: row.status,
    detail: row.detail,
    since: row.failingSince.toISOString(),
    lastAt: failedAt.toISOString(),
  };
}

/**
 * The latest failure of a run that ended (a write succeeded since) while a change that waited at
 * it still waits: Zendesk takes the updates again, and the account recovers until those are written.
 */
function recoveringFrom(reading: Reading): Date | null {
  const row = reading.failure;
  if (!row || row.failingSince !== null || row.failedAt === null) return null;
  const oldest = reading.oldestWaitingAt;
  return oldest !== null && oldest.getTime() <= row.failedAt.getTime() ? row.failedAt : null;
}

function healthOf(reading: Reading, settings: WriteHealthSettings): TicketWriteHealth {
  const now = settings.now();
  const failure = ongoingFailure(reading);
  const recovering = failure ? null : recoveringFrom(reading);
  const oldest = reading.oldestWaitingAt;
  const late = oldest !== null && ageSeconds(oldest, now) > settings.lateAfterSeconds;
  return {
    state: failure ? 'failing' : recovering ? 'recovering' : late ? 'late' : 'ok',
    failure,
    recoveringFrom: recovering?.toISOString() ?? null,
    waiting: reading.waiting,
    oldestWaitingAt: oldest?.toISOString() ?? null,
    lateAfterSeconds: settings.lateAfterSeconds,
    checkedAt: now.toISOString(),
  };
}

function ageSeconds(since: Date, now: Date): number {
  return Math.max(0, Math.round((now.getTime() - since.getTime()) / 1000));
}

/** The account's own write health (its admin page). */
export async function readAccountWriteHealth(
  db: TDatabase,
  accountId: string,
  settings: WriteHealthSettings,
): Promise<TicketWriteHealth> {
  const [row, backlog] = await Promise.all([
    db.prisma.accountHealth.findUnique({
      where: { accountId },
      select: {
        ticketWriteFailingSince: true,
        ticketWriteFailedAt: true,
        ticketWriteFailureCause: true,
        ticketWriteFailureStatus: true,
        ticketWriteFailureDetail: true,
      },
    }),
    db.prisma.pendingTicketChange.aggregate({
      where: { accountId, writtenAt: null, failedReason: null },
      _count: { _all: true },
      _min: { createdAt: true },
    }),
  ]);
  return healthOf(
    {
      failure: row && {
        failingSince: row.ticketWriteFailingSince,
        failedAt: row.ticketWriteFailedAt,
        cause: row.ticketWriteFailureCause,
        status: row.ticketWriteFailureStatus,
        detail: row.ticketWriteFailureDetail,
      },
      waiting: backlog._count._all,
      oldestWaitingAt: backlog._min.createdAt,
    },
    settings,
  );
}

interface TroubledWriter extends TicketWriteHealth {
  state: Exclude<TTicketWriteState, 'ok'>;
  subdomain: string;
  /** Seconds the oldest waiting change has waited, null when none waits. */
  oldestWaitingSeconds: number | null;
}

export interface WriteHealthOverview {
  lateAfterSeconds: number;
  /** The oldest change waiting in any account, in seconds; 0 when none waits. */
  oldestWaitingSeconds: number;
  /**
   * Accounts in trouble per cause; `recovering` counts those writing what a failure held back,
   * `late` those waiting too long without an error.
   */
  troubled: Record<TTicketWriteCause | 'recovering' | 'late', number>;
  /** Every account in trouble, the longest waiting first. */
  accounts: TroubledWriter[];
}

interface TroubleRow extends FailureColumns {
  subdomain: string;
  waiting: number;
  oldest: Date | null;
}

// Accounts with a failure recorded, a change waiting since a recorded failure (recovering) or a
// change older than $1. The backlog is aggregated once from
// the partial index (index-only: it holds the unsent rows alone), then joined to the accounts.
const TROUBLE_SQL = `
  WITH waiting AS (
    SELECT account_id, count(*)::int AS waiting, min(created_at) AS oldest
      FROM pending_ticket_change
     WHERE written_at IS NULL AND failed_reason IS NULL
     GROUP BY account_id)
  SELECT a.zendesk_subdomain AS subdomain,
         COALESCE(w.waiting, 0)::int AS waiting,
         w.oldest,
         h.ticket_write_failing_since AS "failingSince",
         h.ticket_write_failed_at AS "failedAt",
         h.ticket_write_failure_cause AS cause,
         h.ticket_write_failure_status AS status,
         h.ticket_write_failure_detail AS detail
    FROM account a
    LEFT JOIN waiting w ON w.account_id = a.id
    LEFT JOIN account_health h
      ON h.account_id = a.id AND h.ticket_write_failed_at IS NOT NULL
   WHERE h.ticket_write_failing_since IS NOT NULL
      OR w.oldest <= h.ticket_write_failed_at
      OR w.oldest < $1::timestamptz`;

/** Every account whose writes fail or are late, and the figures across all accounts. */
export async function readWriteHealthOverview(
  db: TDatabase,
  settings: WriteHealthSettings,
): Promise<WriteHealthOverview> {
  const now = settings.now();
  const lateBefore = new Date(now.getTime() - settings.lateAfterSeconds * 1000);
  const [rows, backlog] = await Promise.all([
    db.prisma.$queryRawUnsafe<TroubleRow[]>(TROUBLE_SQL, lateBefore.toISOString()),
    db.prisma.pendingTicketChange.aggregate({
      where: { writtenAt: null, failedReason: null },
      _min: { createdAt: true },
    }),
  ]);
  const fixed = { ...settings, now: () => now };
  const troubled = Object.fromEntries(
    [...TICKET_WRITE_CAUSES, 'recovering', 'late'].map((cause) => [cause, 0]),
  ) as WriteHealthOverview['troubled'];
  const accounts: TroubledWriter[] = [];
  for (const row of rows) {
    const oldest = row.oldest === null ? null : new Date(row.oldest);
    const health = healthOf(
      {
        failure: {
          ...row,
          failingSince: row.failingSince && new Date(row.failingSince),
          failedAt: row.failedAt && new Date(row.failedAt),
          status: row.status === null ? null : Number(row.status),
        },
        waiting: Number(row.waiting),
        oldestWaitingAt: oldest,
      },
      fixed,
    );
    if (health.state === 'ok') continue;
    troubled[health.failure?.cause ?? (health.state === 'recovering' ? 'recovering' : 'late')] += 1;
    accounts.push({
      ...health,
      state: health.state,
      subdomain: row.subdomain,
      oldestWaitingSeconds: oldest === null ? null : ageSeconds(oldest, now),
    });
  }
  accounts.sort((a, b) => (b.oldestWaitingSeconds ?? -1) - (a.oldestWaitingSeconds ?? -1));
  const oldest = backlog._min.createdAt;
  return {
    lateAfterSeconds: settings.lateAfterSeconds,
    oldestWaitingSeconds: oldest ? ageSeconds(oldest, now) : 0,
    troubled,
    accounts,
  };
}

export interface WriteHealthReader {
  /** The overview; calls made while a read is under way share it (a scrape asks for it twice). */
  read: () => Promise<WriteHealthOverview>;
  account: (accountId: string) => Promise<TicketWriteHealth>;
  readonly lateAfterSeconds: number;
}

export function writeHealthReader(db: TDatabase, settings: WriteHealthSettings): WriteHealthReader {
  let pending: Promise<WriteHealthOverview> | undefined;
  return {
    lateAfterSeconds: settings.lateAfterSeconds,
    read() {
      pending ??= readWriteHealthOverview(db, settings).finally(() => {
        setImmediate(() => (pending = undefined));
      });
      return pending;
    },
    account: (accountId) => readAccountWriteHealth(db, accountId, settings),
  };
}
