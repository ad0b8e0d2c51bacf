// Who the sidebar's user is in Zendesk, read with the account's own client (so a user of another
// account is not found), and which tickets they may see and act on. Zendesk's Users API says it:
// `role` (end-user, agent, admin), `role_type` (1 light agent, 2 chat-only agent, 3 contributor),
// `ticket_restriction` (organization, groups, assigned, requested; null = all tickets),
// `organization_id`, and the user's group memberships.
import { type AccountContext, isZendeskNotFound, type TTicket, type TUser } from '../accounts';

export interface AgentAccess {
  userId: number;
  /** The email Zendesk has for the user: the author of everything they do. */
  email: string;
  /** The user's name as Zendesk has it: how notes name them. */
  name: string;
  admin: boolean;
  /** Light agents and contributors read but do not act. */
  canAct: boolean;
  ticketRestriction: string | null;
  organizationId: number | null;
  groupIds: ReadonlySet<number>;
}

type AgentCheck = { ok: true; access: AgentAccess } | { ok: false; message: string };

const LIGHT_AGENT = 1;
const CHAT_ONLY_AGENT = 2;
const CONTRIBUTOR = 3;

export interface AgentChecker {
  /** `fresh` skips the cache (a session renewal re-checks the user). */
  check(ctx: AccountContext, userId: number, options?: { fresh?: boolean }): Promise<AgentCheck>;
}

async function readAccess(ctx: AccountContext, userId: number): Promise<AgentCheck> {
  let user: TUser;
  try {
    user = await ctx.zendesk.users.show(userId);
  } catch (error) {
    if (isZendeskNotFound(error))
      return { ok: false, message: 'the user is not a user of this account' };
    throw error;
  }
  const role = user.role ?? '';
  if (role !== 'agent' && role !== 'admin')
    return { ok: false, message: 'the user is not an agent of this account' };
  if (user.suspended === true || user.active === false)
    return { ok: false, message: 'the user is not active' };
  if (role === 'agent' && user.role_type === CHAT_ONLY_AGENT)
    return { ok: false, message: 'the user has no access to tickets' };
  const email = user.email?.trim() ?? '';
  if (!email) return { ok: false, message: 'the user has no email' };
  const admin = role === 'admin';
  const ticketRestriction = admin ? null : (user.ticket_restriction ?? null);
  const groupIds =
    ticketRestriction === 'groups'
      ? new Set((await ctx.zendesk.users.groupMemberships(userId)).map((m) => m.group_id))
      : new Set<number>();
  return {
    ok: true,
    access: {
      userId,
      email,
      name: user.name?.trim() || email,
      admin,
      canAct: admin || (user.role_type !== LIGHT_AGENT && user.role_type !== CONTRIBUTOR),
      ticketRestriction,
      organizationId: user.organization_id ?? null,
      groupIds,
    },
  };
}

export function createAgentChecker(options: { ttlMs: number; now: () => Date }): AgentChecker {
  const cache = new Map<string, { check: AgentCheck; until: number }>();
  return {
    async check(ctx, userId, { fresh = false } = {}) {
      const key = `${ctx.accountId}:${userId}`;
      const now = options.now().getTime();
      const cached = cache.get(key);
      if (!fresh && cached && cached.until > now) return cached.check;
      const check = await readAccess(ctx, userId);
      if (cache.size > 10_000) cache.clear();
      cache.set(key, { check, until: now + options.ttlMs });
      return check;
    },
  };
}

/**
 * Whether Zendesk shows this ticket to the agent: admins and unrestricted agents see every ticket,
 * an assignee their own; otherwise the restriction decides. Unknown restrictions see nothing.
 */
export function maySeeTicket(access: AgentAccess, ticket: TTicket): boolean {
  if (access.admin || access.ticketRestriction === null) return true;
  if (ticket.assignee_id === access.userId) return true;
  switch (access.ticketRestriction) {
    case 'groups':
      return typeof ticket.group_id === 'number' && access.groupIds.has(ticket.group_id);
    case 'organization':
      return access.organizationId !== null && ticket.organization_id === access.organizationId;
    case 'requested':
      return ticket.requester_id === access.userId;
    default:
      return false;
  }
}

/**
 * The tickets among `ticketIds` the agent may open, each read with the account's own client (a
 * ticket that no longer exists is not one of them). Admins and unrestricted agents need no read.
 */
export async function ticketsTheAgentMaySee(
  ctx: AccountContext,
  access: AgentAccess,
  ticketIds: readonly number[],
): Promise<Set<number>> {
  const ids = [...new Set(ticketIds)];
  if (access.admin || access.ticketRestriction === null) return new Set(ids);
  const seen = await Promise.all(
    ids.map(async (id) => {
      try {
        return maySeeTicket(access, await ctx.zendesk.tickets.show(id)) ? id : null;
      } catch (error) {
        if (isZendeskNotFound(error)) return null;
        throw error;
      }
    }),
  );
  return new Set(seen.filter((id): id is number => id !== null));
}
