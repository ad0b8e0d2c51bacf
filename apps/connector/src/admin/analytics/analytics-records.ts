// The connector's own records the analytics join: reports that never became an incident, and the
// tickets linked to incidents waiting on the customer.
import type { TDatabase } from '@incident-desk/db';
import type { ConnectorRecords } from './analytics-aggregate';

export async function readConnectorRecords(
  db: TDatabase,
  accountId: string,
  fromDate: Date,
  waitingIncidentIds: string[],
  clientFilter: string | null,
): Promise<ConnectorRecords> {
  const [attempts, links] = await Promise.all([
    db.prisma.reportAttempt.findMany({
      where: {
        accountId,
        state: { in: ['failed', 'duplicate'] },
        startedAt: { gte: fromDate },
      },
      select: { startedAt: true },
      take: 10_000,
    }),
    db.prisma.incidentLink.findMany({
      where: {
        accountId,
        OR: [{ incidentId: { in: waitingIncidentIds } }, { reportRef: { in: waitingIncidentIds } }],
      },
      select: { incidentId: true, reportRef: true, ticketId: true },
    }),
  ]);
  const ticketOf = new Map<string, number>();
  for (const link of links) {
    ticketOf.set(link.incidentId, Number(link.ticketId));
    if (link.reportRef) ticketOf.set(link.reportRef, Number(link.ticketId));
  }
  return {
    // Failed reports belong to the account, not to one client: shown without a client filter.
    failedReports: clientFilter ? [] : attempts.map((a) => ({ at: a.startedAt })),
    ticketOf,
  };
}
