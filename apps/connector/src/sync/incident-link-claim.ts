// Every link for an incident is saved through the incident's claim row (incident_ticket_claim):
// the row is taken, the link written and the row dropped in one transaction. A worker opening a
// ticket for the same incident holds that row for as long as it works, so the two exclude each
// other on the row's unique key and an incident never ends up with a second ticket.
import { randomUUID } from 'node:crypto';
import { isUniqueViolation, type IncidentLink, type TDatabase } from '@incident-desk/db';

export interface NewLink {
  accountId: string;
  incidentId: string;
  ticketId: number;
  reportRef: string | null;
  dashboardUrl?: string | null;
  /** The reported threat, normalised (`normalizeThreat`); null when unknown. */
  threatValue?: string | null;
  /** The action the report asked for and the incident's status right after it (the sidebar's "requested"). */
  requested?: { action: string; status: string | null; at: Date };
}

export type LinkSave =
  | { saved: true; link: IncidentLink }
  /** A worker is opening a ticket for the incident right now. */
  | { saved: false; reason: 'claimed' }
  /** The incident, the ticket or the reference is linked already. */
  | { saved: false; reason: 'conflict' };

export async function saveLinkUnderClaim(db: TDatabase, link: NewLink): Promise<LinkSave> {
  const { accountId, incidentId, ticketId, reportRef, dashboardUrl = null } = link;
  const threatValue = link.threatValue ?? null;
  try {
    return await db.prisma.$transaction(async (tx): Promise<LinkSave> => {
      const claimed = await tx.incidentTicketClaim.createManyAndReturn({
        data: [{ accountId, incidentId, holder: randomUUID() }],
        skipDuplicates: true,
        select: { id: true },
      });
      const claim = claimed[0];
      if (!claim) return { saved: false, reason: 'claimed' };
      const saved = await tx.incidentLink.create({
        data: {
          accountId,
          incidentId,
          ticketId: BigInt(ticketId),
          reportRef,
          dashboardUrl,
          threatValue,
          ...(link.requested
            ? {
                requestedAction: link.requested.action,
                requestedActionStatus: link.requested.status,
                requestedActionAt: link.requested.at,
              }
            : {}),
        },
      });
      await tx.incidentTicketClaim.delete({ where: { id: claim.id } });
      return { saved: true, link: saved };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { saved: false, reason: 'conflict' };
    throw error;
  }
}
