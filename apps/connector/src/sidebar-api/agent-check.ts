// The agent named by the token must be an agent or admin of THAT account, with that email. Users
// are read with the account's own Zendesk client, so an id from another account is not found.
import { ZendeskRecordNotFoundError, type TUser } from '@incident-desk/zendesk-api';
import type { AccountContext } from '../accounts/account-context';

export type AgentCheck = { ok: true; email: string } | { ok: false; message: string };

const AGENT_ROLES = new Set(['agent', 'admin']);

export interface AgentChecker {
  check(ctx: AccountContext, agentId: number, agentEmail: string): Promise<AgentCheck>;
}

export function createAgentChecker(options: { ttlMs: number; now: () => Date }): AgentChecker {
  const cache = new Map<string, { user: TUser | null; until: number }>();

  async function userOf(ctx: AccountContext, agentId: number): Promise<TUser | null> {
    const key = `${ctx.accountId}:${agentId}`;
    const now = options.now().getTime();
    const cached = cache.get(key);
    if (cached && cached.until > now) return cached.user;
    let user: TUser | null;
    try {
      user = await ctx.zendesk.users.show(agentId);
    } catch (error) {
      if (!(error instanceof ZendeskRecordNotFoundError)) throw error;
      user = null;
    }
    if (cache.size > 10_000) cache.clear();
    cache.set(key, { user, until: now + options.ttlMs });
    return user;
  }

  return {
    async check(ctx, agentId, agentEmail) {
      const user = await userOf(ctx, agentId);
      if (!user) return { ok: false, message: 'the agent is not a user of this account' };
      if (!AGENT_ROLES.has(user.role ?? '') || user.suspended === true || user.active === false)
        return { ok: false, message: 'the user is not an active agent of this account' };
      const email = user.email?.trim() ?? '';
      if (!email || email.toLowerCase() !== agentEmail.trim().toLowerCase())
        return { ok: false, message: 'the agent email does not match the agent' };
      return { ok: true, email };
    },
  };
}
