// Reads and writes of the link table for this direction. While a worker opens a ticket for a
// detected incident, the link row holds a negative placeholder ticket id: the unique
// (account, incident) key then makes the claim exclusive, so two workers never open two tickets.
import { randomInt } from 'node:crypto';
import { isUniqueViolation, type TDatabase } from '@incident-desk/db';

export interface LinkedTicket {
  linkId: string;
  ticketId: number;
  incidentId: string;
  reportRef: string | null;
}

export type LinkLookup =
  | { state: 'linked'; link: LinkedTicket }
  | { state: 'claimed'; linkId: string; claimedAt: Date }
  | { state: 'none' };

export async function findLink(
  db: TDatabase,
  accountId: string,
  incidentId: string,
): Promise<LinkLookup> {
  const row = await db.prisma.incidentLink.findFirst({
    where: { accountId, OR: [{ incidentId }, { reportRef: incidentId }] },
    orderBy: { createdAt: 'asc' },
  });
  if (!row) return { state: 'none' };
  if (row.ticketId < 0n) return { state: 'claimed', linkId: row.id, claimedAt: row.updatedAt };
  return {
    state: 'linked',
    link: {
      linkId: row.id,
      ticketId: Number(row.ticketId),
      incidentId: row.incidentId,
      reportRef: row.reportRef,
    },
  };
}

export interface Claim {
  linkId: string;
  placeholder: bigint;
}

function placeholderTicketId(): bigint {
  return -BigInt(randomInt(1, 2 ** 47));
}

/** Claims the right to open the ticket; null when another worker holds a claim or a link. */
export async function claimIncident(
  db: TDatabase,
  accountId: string,
  incidentId: string,
): Promise<Claim | null> {
  const placeholder = placeholderTicketId();
  try {
    const row = await db.prisma.incidentLink.create({
      data: { accountId, incidentId, ticketId: placeholder },
      select: { id: true },
    });
    return { linkId: row.id, placeholder };
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** Takes over a claim whose worker stopped; null when someone else changed it first. */
export async function takeOverClaim(
  db: TDatabase,
  linkId: string,
  claimedAt: Date,
): Promise<Claim | null> {
  const placeholder = placeholderTicketId();
  const taken = await db.prisma.incidentLink.updateMany({
    where: { id: linkId, updatedAt: claimedAt, ticketId: { lt: 0n } },
    data: { ticketId: placeholder },
  });
  return taken.count === 1 ? { linkId, placeholder } : null;
}

export async function completeClaim(db: TDatabase, claim: Claim, ticketId: number): Promise<void> {
  const done = await db.prisma.incidentLink.updateMany({
    where: { id: claim.linkId, ticketId: claim.placeholder },
    data: { ticketId: BigInt(ticketId) },
  });
  if (done.count !== 1)
    throw new Error(`claim ${claim.linkId} was lost before ticket ${ticketId} was linked`);
}

export async function releaseClaim(db: TDatabase, claim: Claim): Promise<void> {
  await db.prisma.incidentLink.deleteMany({
    where: { id: claim.linkId, ticketId: claim.placeholder },
  });
}

/**
 * Saves a link found by the recovery search. Returns the link that holds afterwards: ours, or the
 * one another worker saved first.
 */
export async function saveRecoveredLink(
  db: TDatabase,
  accountId: string,
  incidentId: string,
  ticketId: number,
): Promise<LinkLookup> {
  try {
    await db.prisma.incidentLink.create({
      data: { accountId, incidentId, ticketId: BigInt(ticketId) },
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  return findLink(db, accountId, incidentId);
}
