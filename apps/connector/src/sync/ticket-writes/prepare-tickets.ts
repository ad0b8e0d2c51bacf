// The updates a pass sends: each ticket's waiting changes, coalesced under a fresh reference.
import { randomUUID } from 'node:crypto';
import type { TDatabase } from '@incident-desk/db';
import type { AccountContext } from '../../accounts';
import { coalesce } from './coalesce';
import type { DrainOptions } from './drain-options';
import { settleEarlierAttempts } from './earlier-attempts';
import type { TicketBatch } from './ticket-batch';
import { changesThatFit } from './write-metadata';

/**
 * Each ticket's waiting changes as one update, read for all the pass's tickets at once. Changes an
 * earlier attempt carried are settled first: when the ticket shows that attempt's note, they are
 * written; otherwise they go again, with the rest.
 */
export async function prepareTickets(
  ctx: AccountContext,
  db: TDatabase,
  ticketIds: bigint[],
  options: DrainOptions,
): Promise<TicketBatch[]> {
  const [rows, links] = await Promise.all([
    db.prisma.pendingTicketChange.findMany({
      where: {
        accountId: ctx.accountId,
        ticketId: { in: ticketIds },
        writtenAt: null,
        failedReason: null,
      },
      orderBy: [{ eventAt: 'asc' }, { createdAt: 'asc' }],
    }),
    db.prisma.incidentLink.findMany({
      where: { accountId: ctx.accountId, ticketId: { in: ticketIds } },
      select: { ticketId: true, dashboardUrl: true },
    }),
  ]);
  const rowsOf = new Map<bigint, typeof rows>();
  for (const row of rows) rowsOf.set(row.ticketId, [...(rowsOf.get(row.ticketId) ?? []), row]);
  const dashboardOf = new Map(links.map((link) => [link.ticketId, link.dashboardUrl]));
  const batches: TicketBatch[] = [];
  const settled: string[] = [];
  for (const ticketId of ticketIds) {
    let waiting = rowsOf.get(ticketId) ?? [];
    // a job queued since the pass looked at leases: only its status says what landed
    if (waiting.some((row) => row.writeJobId !== null)) continue;
    if (waiting.some((row) => row.writeRef !== null)) {
      waiting = await settleEarlierAttempts(ctx, db, ticketId, waiting, options);
    }
    if (waiting.length === 0) continue;
    const writeRef = randomUUID();
    // what the audit metadata can carry; the rest waits for the next write
    waiting = waiting.slice(
      0,
      changesThatFit(
        writeRef,
        waiting.map((row) => row.eventRef),
      ),
    );
    const foundByNote = !ctx.canReadAudits;
    const dashboardUrl = dashboardOf.get(ticketId);
    const { body, input } = coalesce(ctx, waiting, writeRef, { dashboardUrl });
    if (Object.keys(input).length === 0) {
      settled.push(...waiting.map((row) => row.id));
      continue;
    }
    batches.push({ ticketId, rows: waiting, writeRef, foundByNote, dashboardUrl, body, input });
  }
  if (settled.length > 0)
    await db.prisma.pendingTicketChange.updateMany({
      where: { id: { in: settled } },
      data: { writtenAt: options.now() },
    });
  return batches;
}
