// An account the connector found gone: its sidebar app uninstalled in Zendesk, or its grant lost
// (a refresh refused for good); or one an admin is disconnecting. From then on nothing acts for it: its jobs are skipped (not retried
// against Zendesk), its writer has nothing left to write, setup does not run, the sidebar and the
// incident connection are refused. The account's data stay: an admin who installs again picks
// everything up where it was (the install clears the mark), or disconnects on the admin page,
// which removes what setup created and the account with its data.
import { DISCONNECT_REASONS, type TDisconnectReason } from '@incident-desk/admin-contract';
import type { TDatabase } from '@incident-desk/db';

export type { TDisconnectReason };

export interface Disconnection {
  at: Date;
  reason: TDisconnectReason;
  detail: string | null;
}

/** Why a change waiting for the account's writer was dropped at its disconnection. */
function droppedChangeReason(reason: TDisconnectReason): string {
  return `not written: the account was disconnected (${reason.replace(/_/g, ' ')})`;
}

/**
 * Marks the account disconnected (the first mark stands) and drops the ticket changes still
 * waiting for its writer, so the writer finds nothing of it to write or retry. True when this call
 * disconnected it.
 */
export async function markAccountDisconnected(
  db: TDatabase,
  accountId: string,
  reason: TDisconnectReason,
  detail: string | null,
  now: Date,
): Promise<boolean> {
  const marked = await db.prisma.account.updateMany({
    where: { id: accountId, disconnectedAt: null },
    data: {
      disconnectedAt: now,
      disconnectReason: reason,
      disconnectDetail: detail?.slice(0, 500),
    },
  });
  await db.prisma.pendingTicketChange.updateMany({
    where: { accountId, writtenAt: null, failedReason: null },
    data: { failedReason: droppedChangeReason(reason) },
  });
  return marked.count === 1;
}

/**
 * An admin installed again: the account acts again. The app must be seen installed anew before
 * its absence means anything (the admin may authorise before installing the app again).
 */
export async function reconnectAccount(db: TDatabase, accountId: string): Promise<void> {
  await db.prisma.account.updateMany({
    where: { id: accountId, disconnectedAt: { not: null } },
    data: {
      disconnectedAt: null,
      disconnectReason: null,
      disconnectDetail: null,
      appInstallationSeenAt: null,
    },
  });
}

export async function readDisconnection(
  db: TDatabase,
  accountId: string,
): Promise<Disconnection | null> {
  const row = await db.prisma.account.findUnique({
    where: { id: accountId },
    select: { disconnectedAt: true, disconnectReason: true, disconnectDetail: true },
  });
  return row?.disconnectedAt ? disconnectionOf(row) : null;
}

export function disconnectionOf(row: {
  disconnectedAt: Date | null;
  disconnectReason: string | null;
  disconnectDetail: string | null;
}): Disconnection | null {
  if (!row.disconnectedAt) return null;
  const reason = (DISCONNECT_REASONS as readonly string[]).includes(row.disconnectReason ?? '')
    ? (row.disconnectReason as TDisconnectReason)
    : 'authorization_lost';
  return { at: row.disconnectedAt, reason, detail: row.disconnectDetail };
}
