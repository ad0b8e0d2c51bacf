// Reads and writes of the link table for this direction. While a worker opens a ticket for a
// detected incident it holds the incident's row in incident_ticket_claim (unique per account and
// incident), so two workers never open two tickets; incident_link only ever holds real tickets.
import { randomUUID } from 'node:crypto';
import { querySql, type IncidentLink, type TDatabase } from '@incident-desk/db';
import { saveLinkUnderClaim } from '../incident-link-claim';
import type { IncidentForms } from './incident-forms';

export interface LinkedTicket {
  linkId: string;
  ticketId: number;
  incidentId: string;
  reportRef: string | null;
}

/** A link as saved (saveLinkUnderClaim's answer), in the form the lookup gives. */
export function linkedTicketOf(link: IncidentLink): LinkedTicket {
  return {
    linkId: link.id,
    ticketId: Number(link.ticketId),
    incidentId: link.incidentId,
    reportRef: link.reportRef,
  };
}

export type LinkLookup =
  | { state: 'linked'; link: LinkedTicket }
  | { state: 'claimed'; claim: Claim; claimedAt: Date }
  | { state: 'none' };

/** A claim on opening the incident's ticket, as held by one worker (`holder`). */
export interface Claim {
  claimId: string;
  accountId: string;
  incidentId: string;
  holder: string;
}

/** The incident's first link (by id or report reference) and its claim, if any, side by side. */
interface LinkAndClaimRow {
  linkId: string | null;
  ticketId: bigint | number | string | null;
  linkedIncidentId: string | null;
  reportRef: string | null;
  claimId: string | null;
  holder: string | null;
  claimedAt: Date | string | null;
}

// One statement, so one snapshot: completing a claim deletes it and saves the link in one
// transaction, so this sees either the claim or the link, never neither while a claim completes.
// (Every incident event reads it: as two statements it was two round trips on PGlite's one
// connection, and the claim had to be read first.)
const LINK_AND_CLAIM_SQL = `
  SELECT l.id AS "linkId", l.ticket_id AS "ticketId", l.incident_id AS "linkedIncidentId",
         l.report_ref AS "reportRef", c.id AS "claimId", c.holder::text AS "holder",
         c.claimed_at AS "claimedAt"
    FROM (SELECT 1) AS one
    LEFT JOIN LATERAL (
      SELECT id, ticket_id, incident_id, report_ref
        FROM incident_link
       WHERE account_id = $1::uuid AND (incident_id = $2 OR report_ref = $2)
       ORDER BY created_at ASC
       LIMIT 1
    ) AS l ON true
    LEFT JOIN incident_ticket_claim AS c ON c.account_id = $1::uuid AND c.incident_id = $2`;

export async function findLink(
  db: TDatabase,
  accountId: string,
  incidentId: string,
): Promise<LinkLookup> {
  const [row] = await querySql<LinkAndClaimRow>(db, LINK_AND_CLAIM_SQL, [accountId, incidentId]);
  if (row?.linkId && row.linkedIncidentId !== null && row.ticketId !== null) {
    return {
      state: 'linked',
      link: {
        linkId: row.linkId,
        ticketId: Number(row.ticketId),
        incidentId: row.linkedIncidentId,
        reportRef: row.reportRef,
      },
    };
  }
  if (!row?.claimId || row.holder === null || row.claimedAt === null) return { state: 'none' };
  return {
    state: 'claimed',
    claim: { claimId: row.claimId, accountId, incidentId, holder: row.holder },
    claimedAt: new Date(row.claimedAt),
  };
}

export type IncidentClaim =
  | { state: 'claimed'; claim: Claim }
  /** Another worker holds the claim. */
  | { state: 'held' }
  /** A link was saved before the claim was taken: the claim is released. */
  | { state: 'linked'; link: LinkedTicket };

/**
 * Claims the right to open the ticket. Once the claim is held no link can be saved for the
 * incident (saveLinkUnderClaim takes the same row), so the link is looked up after claiming: a
 * report or the recovery search may have linked the incident before the claim was taken.
 */
export async function claimIncident(
  db: TDatabase,
  accountId: string,
  incidentId: string,
  now: Date,
): Promise<IncidentClaim> {
  const holder = randomUUID();
  const row = await db.prisma.incidentTicketClaim.createManyAndReturn({
    data: [{ accountId, incidentId, holder, claimedAt: now }],
    skipDuplicates: true,
    select: { id: true },
  });
  if (row.length === 0) return { state: 'held' };
  const claim: Claim = { claimId: row[0]!.id, accountId, incidentId, holder };
  const saved = await findLink(db, accountId, incidentId);
  if (saved.state === 'linked') {
    await releaseClaim(db, claim);
    return { state: 'linked', link: saved.link };
  }
  return { state: 'claimed', claim };
}

/** Takes over a claim whose worker stopped; null when someone else changed it first. */
export async function takeOverClaim(db: TDatabase, stale: Claim, now: Date): Promise<Claim | null> {
  const holder = randomUUID();
  const taken = await db.prisma.incidentTicketClaim.updateMany({
    where: { id: stale.claimId, holder: stale.holder },
    data: { holder, claimedAt: now },
  });
  return taken.count === 1 ? { ...stale, holder } : null;
}

/** Links the opened (or recovered) ticket and ends the claim, in one transaction: the link's id. */
export async function completeClaim(
  db: TDatabase,
  claim: Claim,
  ticketId: number,
  /** The incident's threat, normalised (`normalizeThreat`), when known. */
  threatValue: string | null = null,
  /** The blocklist listings the first note showed: later takedown notes name only newer ones. */
  notedListings: { listed: number; listings: number } = { listed: 0, listings: 0 },
  /** The incident's ids as its detail named them; by default the claimed id alone. */
  forms: IncidentForms = { incidentId: claim.incidentId, otherForm: null },
): Promise<string> {
  return db.prisma.$transaction(async (tx) => {
    const ended = await tx.incidentTicketClaim.deleteMany({
      where: { id: claim.claimId, holder: claim.holder },
    });
    if (ended.count !== 1)
      throw new Error(
        `claim on incident ${claim.incidentId} was lost before ticket ${ticketId} was linked`,
      );
    const link = await tx.incidentLink.create({
      data: {
        accountId: claim.accountId,
        incidentId: forms.incidentId,
        reportRef: forms.otherForm,
        ticketId: BigInt(ticketId),
        threatValue,
        notedListed: notedListings.listed,
        notedListings: notedListings.listings,
      },
      select: { id: true },
    });
    return link.id;
  });
}

export async function releaseClaim(db: TDatabase, claim: Claim): Promise<void> {
  await db.prisma.incidentTicketClaim.deleteMany({
    where: { id: claim.claimId, holder: claim.holder },
  });
}

/**
 * Saves a link found by the recovery search. Returns the state that holds afterwards: our link,
 * the one saved first by someone else, or the claim of a worker that is opening a ticket.
 */
export async function saveRecoveredLink(
  db: TDatabase,
  accountId: string,
  incidentId: string,
  ticketId: number,
): Promise<LinkLookup> {
  await saveLinkUnderClaim(db, { accountId, incidentId, ticketId, reportRef: null });
  return findLink(db, accountId, incidentId);
}
