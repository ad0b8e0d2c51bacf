// What /healthz adds for an operator: which accounts' ticket updates fail or lag and why, queue
// depths, and the accounts waiting for re-authorisation or disconnected.
import type { TDatabase } from '@incident-desk/db';
import type { QueueDepthReader } from '../metrics';
import type { WriteHealthOverview } from '../sync';
import type { FailedCheck } from './readiness-checks';

/** Accounts listed in /healthz's details at most; the counts cover them all. */
const LISTED_ACCOUNTS_MAX = 100;

/** /healthz's ticketWrites for an operator: the accounts in trouble by subdomain, longest waiting first. */
export function ticketWriteDetails(writes: WriteHealthOverview) {
  const troubled = Object.fromEntries(
    Object.entries(writes.troubled).filter(([, count]) => count > 0),
  );
  return {
    ok: writes.accounts.length === 0,
    lateAfterSeconds: writes.lateAfterSeconds,
    oldestWaitingSeconds: writes.oldestWaitingSeconds,
    failing: writes.accounts.filter((account) => account.state === 'failing').length,
    recovering: writes.accounts.filter((account) => account.state === 'recovering').length,
    late: writes.accounts.filter((account) => account.state === 'late').length,
    troubled,
    accounts: writes.accounts.slice(0, LISTED_ACCOUNTS_MAX).map((account) => ({
      subdomain: account.subdomain,
      state: account.state,
      cause: account.failure?.cause ?? null,
      status: account.failure?.status ?? null,
      detail: account.failure?.detail ?? null,
      failingSince: account.failure?.since ?? null,
      lastFailureAt: account.failure?.lastAt ?? account.recoveringFrom,
      waiting: account.waiting,
      oldestWaitingSeconds: account.oldestWaitingSeconds,
    })),
    notListed: Math.max(0, writes.accounts.length - LISTED_ACCOUNTS_MAX),
  };
}

/** /healthz's disconnected accounts for an operator: by reason, the latest first. */
async function disconnectedAccounts(db: TDatabase) {
  const where = { disconnectedAt: { not: null } };
  const [count, rows] = await Promise.all([
    db.prisma.account.count({ where }),
    db.prisma.account.findMany({
      where,
      select: { zendeskSubdomain: true, disconnectReason: true, disconnectedAt: true },
      orderBy: { disconnectedAt: 'desc' },
      take: LISTED_ACCOUNTS_MAX,
    }),
  ]);
  return {
    count,
    accounts: rows.map((row) => ({
      subdomain: row.zendeskSubdomain,
      reason: row.disconnectReason,
      since: row.disconnectedAt?.toISOString() ?? null,
    })),
    notListed: Math.max(0, count - rows.length),
  };
}

/** What only an operator sees in /healthz: queue depths and the accounts whose work has stopped. */
export async function operatorDetails(
  db: TDatabase,
  queueDepths: QueueDepthReader,
  failed: FailedCheck,
) {
  const queues = await queueDepths
    .read()
    .then(
      (depths) =>
        Object.fromEntries(depths.map(({ queue, ...depth }) => [queue, depth] as const)) as Record<
          string,
          unknown
        >,
    )
    .catch((error: unknown) => ({ error: failed('queue depths', error) }));
  // A revoked or expired refresh token stops one account, not the service: the instance stays
  // ready, and the count (never which accounts) tells operators an administrator must reconnect.
  // Disconnected accounts (app uninstalled, grant lost, a disconnect left unfinished) are named,
  // as ticketWrites names its accounts: whose work has stopped, why and since when.
  const accounts = await Promise.all([
    db.prisma.zendeskCredential.count({ where: { state: 'reauthorization_required' } }),
    disconnectedAccounts(db),
  ])
    .then(([reauthorizationRequired, disconnected]) => ({
      reauthorizationRequired,
      disconnected,
    }))
    .catch((error: unknown) => ({ error: failed('accounts', error) }));
  return { queues, accounts };
}
