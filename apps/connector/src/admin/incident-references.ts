// The name agents know an incident by: the value the ticket's Incident ID field holds. For a
// reported incident that is the report's reference (`inc_…`, kept as the link's `report_ref`),
// not the id the service's events and detail carry; otherwise the incident id itself.
import type { TDatabase } from '@incident-desk/db';

/** Reads the account's links for `incidentIds` (either id form) in one query. */
export async function ticketReferencesOf(
  db: TDatabase,
  accountId: string,
  incidentIds: readonly string[],
): Promise<(incidentId: string) => string> {
  const ids = [...new Set(incidentIds)];
  const links =
    ids.length === 0
      ? []
      : await db.prisma.incidentLink.findMany({
          where: { accountId, OR: [{ incidentId: { in: ids } }, { reportRef: { in: ids } }] },
          select: { incidentId: true, reportRef: true },
        });
  const references = new Map<string, string>();
  for (const link of links) {
    const reference = link.reportRef ?? link.incidentId;
    references.set(link.incidentId, reference);
    if (link.reportRef) references.set(link.reportRef, reference);
  }
  return (incidentId) => references.get(incidentId) ?? incidentId;
}
