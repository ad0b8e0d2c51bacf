// Whether a threat is already an incident this account knows (GET …/duplicates): linked
// to another ticket (the link table's normalised threat value), or found by the incident service's
// resolutions search where the account has it. Only exact equality of the normalised value counts:
// the search is free text and may list a similar URL, which is never taken for the same threat.
// People are shown the reference a report answered (inc_…), never the service's list id, and only
// the tickets they may open: a ticket hidden from the agent is counted, never named.
import type { TDatabase } from '@incident-desk/db';
import { APIConnectionError, APIError, PermissionDeniedError } from '@incident-desk/incident-api';
import { defang, kindOfValue, normalizeThreat } from '@incident-desk/threat-text';
import type { TServiceSearch, TThreatDuplicates } from '@incident-desk/sidebar-contract';
import type { AccountContext } from '../accounts';
import { logger } from '../log';
import { ticketsTheAgentMaySee, type AgentAccess } from './agent-access';

/** A threat value read from a request: a string of at most 2,048 characters, not blank. */
export function threatValueOf(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const trimmed = raw.trim();
  return trimmed && trimmed.length <= 2048 ? normalizeThreat(trimmed) : null;
}

export async function findThreatDuplicates(
  db: TDatabase,
  ctx: AccountContext,
  ticketId: number,
  value: string,
): Promise<TThreatDuplicates> {
  const { accountId } = ctx;
  const links = await db.prisma.incidentLink.findMany({
    where: { accountId, threatValue: value, NOT: { ticketId: BigInt(ticketId) } },
    orderBy: { createdAt: 'asc' },
    take: 10,
  });
  const linked = links.map((link) => ({
    incidentId: link.incidentId,
    reference: link.reportRef,
    ticketId: Number(link.ticketId),
  }));
  return { value, display: defang(value), linked, service: await searchService(db, ctx, value) };
}

async function searchService(
  db: TDatabase,
  ctx: AccountContext,
  value: string,
): Promise<TServiceSearch> {
  let subjects: { id: string; subject: string }[];
  try {
    const page = await ctx.incidents().resolutions.listPage({ search: value, limit: 25 });
    subjects = page.data;
  } catch (error) {
    if (error instanceof PermissionDeniedError) return { state: 'not_enabled' };
    if (error instanceof APIError || error instanceof APIConnectionError)
      return { state: 'unavailable' };
    logger.error('sidebar duplicates: the resolutions search failed', { error });
    return { state: 'unavailable' };
  }
  const kind = kindOfValue(value);
  const same = subjects.filter((item) => normalizeThreat(item.subject, kind) === value);
  if (same.length === 0) return { state: 'searched', incidents: [] };
  const links = await db.prisma.incidentLink.findMany({
    where: { accountId: ctx.accountId, incidentId: { in: same.map((item) => item.id) } },
  });
  return {
    state: 'searched',
    incidents: same.map((item) => {
      const link = links.find((row) => row.incidentId === item.id);
      return {
        incidentId: item.id,
        reference: link?.reportRef ?? null,
        display: defang(item.subject),
        linkedTicketId: link ? Number(link.ticketId) : null,
        followed: link !== undefined,
      };
    }),
  };
}

/**
 * The duplicates as this agent may see them: a ticket they may not open (Zendesk's ticket
 * restriction) keeps its place, so they learn that a ticket follows the incident, but not which.
 */
export async function duplicatesShownTo(
  ctx: AccountContext,
  access: AgentAccess,
  duplicates: TThreatDuplicates,
): Promise<TThreatDuplicates> {
  const { service } = duplicates;
  const named = [
    ...duplicates.linked.map((link) => link.ticketId),
    ...(service.state === 'searched' ? service.incidents.map((i) => i.linkedTicketId) : []),
  ].filter((id): id is number => id !== null);
  const visible = await ticketsTheAgentMaySee(ctx, access, named);
  const shown = (id: number | null) => (id !== null && visible.has(id) ? id : null);
  return {
    ...duplicates,
    linked: duplicates.linked.map((link) => ({ ...link, ticketId: shown(link.ticketId) })),
    service:
      service.state === 'searched'
        ? {
            ...service,
            incidents: service.incidents.map((incident) => ({
              ...incident,
              linkedTicketId: shown(incident.linkedTicketId),
            })),
          }
        : service,
  };
}
