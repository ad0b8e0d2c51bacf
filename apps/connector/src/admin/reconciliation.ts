// The reconciliation queue of one account: tickets whose report could not be linked. Link ties a
// ticket to an incident the admin names (checked with the incident service first); Retry clears the
// unlinked state and reports again, exactly as the sidebar's retry does. Both count their ticket
// update before they change anything; when Zendesk cannot take it now they answer retry_later.
import { NotFoundError } from '@incident-desk/incident-api';
import { isUniqueViolation, type TDatabase } from '@incident-desk/db';
import type { AccountContext, DatabaseAccountContextProvider } from '../accounts';
import type { Inbox } from '../ingest';
import { notePlain, noteTexts, unlinkedDetail, type UnlinkedReason } from '../notes';
import { orRetryLater, retryLink } from '../sidebar-api';
import { TAG_LINKED, TAG_UNLINKED } from '../setup';
import { reserveTicketWrite } from '../sync';
import type { AdminSession } from './admin-sessions';
import { AppError } from '../http';

/** Done (`status`, `message`) or refused (an AppError, written by http/app-error.ts). */
export type ReconciliationResult = { status: number; message: string } | { error: AppError };

export async function listReconciliation(
  db: TDatabase,
  accountId: string,
  ticketUrlOf: (ticketId: number) => string,
) {
  const rows = await db.prisma.reconciliationEntry.findMany({
    where: { accountId, resolvedAt: null },
    orderBy: { createdAt: 'desc' },
    take: 200,
  });
  const whyOf = await unlinkedReasonsOf(db, accountId, rows);
  return rows.map((row) => ({
    ticketId: Number(row.ticketId),
    ticketUrl: ticketUrlOf(Number(row.ticketId)),
    reason: row.reason,
    detail: row.detail,
    why: whyOf(row),
    createdAt: row.createdAt,
  }));
}

function parsedReason(detail: string | null): UnlinkedReason | null {
  try {
    const parsed: unknown = detail ? JSON.parse(detail) : null;
    return parsed && typeof parsed === 'object' && 'kind' in parsed
      ? (parsed as UnlinkedReason)
      : null;
  } catch {
    return null;
  }
}

/**
 * The entries' reasons as codes: the report attempt keeps the reason the entry's English detail
 * was written from, so an attempt whose reason reads as that detail gives it (else null).
 */
async function unlinkedReasonsOf(
  db: TDatabase,
  accountId: string,
  rows: { ticketId: bigint; detail: string | null }[],
) {
  const attempts = await db.prisma.reportAttempt.findMany({
    where: { accountId, ticketId: { in: rows.map((row) => row.ticketId) } },
    select: { ticketId: true, detail: true },
  });
  return (row: { ticketId: bigint; detail: string | null }): UnlinkedReason | null => {
    for (const attempt of attempts) {
      if (attempt.ticketId !== row.ticketId) continue;
      const reason = parsedReason(attempt.detail);
      if (reason && row.detail !== null && unlinkedDetail(reason) === row.detail) return reason;
    }
    return null;
  };
}

const INCIDENT_ID = /^[A-Za-z0-9_-]{1,128}$/;

async function openEntry(db: TDatabase, accountId: string, ticketId: string) {
  if (!/^\d{1,19}$/.test(ticketId)) return null;
  return db.prisma.reconciliationEntry.findFirst({
    where: { accountId, ticketId: BigInt(ticketId), resolvedAt: null },
  });
}

/** Whether the incident exists for the account's client or one of its sub-clients. */
async function incidentExists(
  accounts: DatabaseAccountContextProvider,
  ctx: AccountContext,
  incidentId: string,
): Promise<boolean> {
  const { incidentClientIds } = await accounts.clientsFor(ctx.accountId);
  for (const clientId of incidentClientIds) {
    try {
      await ctx.incidents(clientId).incidents.retrieve(incidentId);
      return true;
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  return false;
}

export function linkTicket(
  deps: { db: TDatabase; accounts: DatabaseAccountContextProvider },
  session: AdminSession,
  ticketId: string,
  incidentId: unknown,
  now: Date,
): Promise<ReconciliationResult> {
  return orRetryLater(() => linkTicketNow(deps, session, ticketId, incidentId, now));
}

async function linkTicketNow(
  deps: { db: TDatabase; accounts: DatabaseAccountContextProvider },
  session: AdminSession,
  ticketId: string,
  incidentId: unknown,
  now: Date,
): Promise<ReconciliationResult> {
  const { db, accounts } = deps;
  const entry = await openEntry(db, session.accountId, ticketId);
  if (!entry)
    return { error: new AppError('not_found', { message: 'no such ticket in the queue' }) };
  if (typeof incidentId !== 'string' || !INCIDENT_ID.test(incidentId))
    return { error: new AppError('invalid_incident_id', { message: 'not an incident id' }) };
  const ctx = await accounts.forAccount(session.accountId);
  if (!(await incidentExists(accounts, ctx, incidentId)))
    return {
      error: new AppError('unknown_incident', {
        message: 'the incident service knows no such incident for this account',
      }),
    };
  const write = await reserveTicketWrite(ctx, db, Number(entry.ticketId), {
    priority: true,
    now: () => now,
  });
  try {
    await db.prisma.$transaction(async (tx) => {
      await tx.incidentLink.create({
        data: { accountId: session.accountId, incidentId, ticketId: entry.ticketId },
      });
      await tx.reconciliationEntry.update({
        where: { id: entry.id },
        data: { resolvedAt: now },
      });
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return {
      error: new AppError('already_linked', {
        message: 'that ticket or that incident is already linked',
      }),
    };
  }
  await write.send({
    note: noteTexts(ctx.noteLocale).link.linkedByAdmin(incidentId, notePlain(session.userName)),
    fields: [{ id: ctx.fields.incidentId, value: incidentId }],
    addTags: [TAG_LINKED],
    removeTags: [TAG_UNLINKED],
  });
  return { status: 200, message: 'linked' };
}

export async function retryReconciliation(
  deps: { db: TDatabase; accounts: DatabaseAccountContextProvider; inbox: Inbox },
  session: AdminSession,
  ticketId: string,
  now: Date,
): Promise<ReconciliationResult> {
  const { db, accounts, inbox } = deps;
  const entry = await openEntry(db, session.accountId, ticketId);
  if (!entry)
    return { error: new AppError('not_found', { message: 'no such ticket in the queue' }) };
  const ctx = await accounts.forAccount(session.accountId);
  const ticket = await ctx.zendesk.tickets.show(Number(entry.ticketId));
  const result = await retryLink(
    db,
    inbox,
    {
      ctx,
      ticketId: Number(entry.ticketId),
      agentId: session.zendeskUserId,
      agentEmail: `a Zendesk admin (user ${session.zendeskUserId})`,
      agentName: session.userName,
    },
    ticket,
    now,
  );
  if ('error' in result) return { error: result.error };
  return result;
}
