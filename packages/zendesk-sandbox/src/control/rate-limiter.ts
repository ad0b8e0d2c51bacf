import express, { type RequestHandler, type Router } from 'express';
import { subdomainOf } from '../api/request-locals';
import type { AccountRecord } from '../state/model';
import { SandboxError, type SandboxState } from '../state/sandbox-state';

/** The limits the sandbox answers 429 for, as the control API names them. */
const LIMIT_KINDS = ['plan', 'update_ticket', 'ticket_updates_per_user', 'jobs'] as const;
export type TLimitKind = (typeof LIMIT_KINDS)[number];

interface Window {
  start: number;
  count: number;
}

interface Taken {
  exceeded: boolean;
  remaining: number;
  /** Whole seconds until the window ends, at least 1: Zendesk's Retry-After and ratelimit-reset. */
  resetSeconds: number;
}

function rateLimited(description: string, retryAfterSeconds: number): SandboxError {
  return new SandboxError(
    429,
    { error: 'APIRateLimitExceeded', description },
    { 'Retry-After': String(retryAfterSeconds) },
  );
}

function minutes(ms: number): string {
  const n = ms / 60_000;
  return n === 1 ? 'minute' : `${Number.isInteger(n) ? n : n.toFixed(2)} minutes`;
}

/**
 * Zendesk's request limits, each a fixed window per key (Zendesk reports "requests remaining in the
 * current minute" and the seconds until it resets): the plan's limit on every Support API request,
 * the Update Ticket endpoint's limit per account, and its limit per user per ticket. Counts the 429s
 * answered per account and limit for the control API.
 */
export class RateLimits {
  private readonly windows = new Map<string, Window>();
  private readonly refusals = new Map<string, Map<TLimitKind, number>>();

  constructor(private readonly state: SandboxState) {}

  private windowOf(key: string, windowMs: number): Window {
    const now = this.state.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    return window;
  }

  /** What the window holds after `added` more requests, counted or not. */
  private figures(window: Window, limit: number, windowMs: number, added: number): Taken {
    const count = window.count + added;
    return {
      exceeded: count > limit,
      remaining: Math.max(0, limit - count),
      resetSeconds: Math.max(1, Math.ceil((window.start + windowMs - this.state.now()) / 1000)),
    };
  }

  private take(key: string, limit: number, windowMs: number): Taken {
    const window = this.windowOf(key, windowMs);
    window.count += 1;
    return this.figures(window, limit, windowMs, 0);
  }

  /** Starts the account's windows of these limits afresh (their figures were just changed). */
  restartWindows(subdomain: string, kinds: TLimitKind[]): void {
    const prefixes = kinds.flatMap((kind) =>
      kind === 'plan'
        ? [`plan:${subdomain}`]
        : kind === 'update_ticket'
          ? [`update_ticket:${subdomain}`]
          : kind === 'ticket_updates_per_user'
            ? [`ticket:${subdomain}:`]
            : [],
    );
    for (const key of this.windows.keys()) {
      if (
        prefixes.some(
          (prefix) => key === prefix || (prefix.endsWith(':') && key.startsWith(prefix)),
        )
      )
        this.windows.delete(key);
    }
  }

  /** Counts one 429 of this kind on the account. */
  refused(subdomain: string, kind: TLimitKind): void {
    const account = this.refusals.get(subdomain) ?? new Map<TLimitKind, number>();
    account.set(kind, (account.get(kind) ?? 0) + 1);
    this.refusals.set(subdomain, account);
  }

  /** The plan's limit on every `/api/v2/*` request, with the headers Zendesk sends on each answer. */
  middleware(): RequestHandler {
    return (req, res, next) => {
      const subdomain = subdomainOf(res);
      const account = subdomain === undefined ? undefined : this.state.account(subdomain);
      if (!account || !req.path.startsWith('/api/v2/')) return next();
      const { requestsPerMinute: limit, windowMs } = account.rateLimit;
      const taken = this.take(`plan:${account.subdomain}`, limit, windowMs);
      res.setHeader('X-Rate-Limit', String(limit));
      res.setHeader('X-Rate-Limit-Remaining', String(taken.remaining));
      if (req.path.startsWith('/api/v2/tickets')) {
        res.setHeader('ratelimit-limit', String(limit));
        res.setHeader('ratelimit-remaining', String(taken.remaining));
        res.setHeader('ratelimit-reset', String(taken.resetSeconds));
      }
      if (taken.exceeded) {
        this.refused(account.subdomain, 'plan');
        const error = rateLimited(
          `Number of allowed API requests per ${minutes(windowMs)} exceeded`,
          taken.resetSeconds,
        );
        res.setHeader('Retry-After', String(taken.resetSeconds));
        res.status(429).json(error.body);
        return;
      }
      next();
    };
  }

  /**
   * One call of the Update Ticket endpoint (`PUT /api/v2/tickets/{id}`): its limit per account,
   * counting every call. Throws the 429 to answer.
   */
  takeUpdateTicket(account: AccountRecord): void {
    const limits = account.rateLimit;
    const endpoint = this.take(
      `update_ticket:${account.subdomain}`,
      limits.updateTicketPerMinute,
      limits.updateTicketWindowMs,
    );
    if (endpoint.exceeded) {
      this.refused(account.subdomain, 'update_ticket');
      throw rateLimited(
        `Number of allowed Update Ticket API requests per ${minutes(limits.updateTicketWindowMs)} exceeded`,
        endpoint.resetSeconds,
      );
    }
  }

  /**
   * One update of one ticket by one user (single or in a job): refused with a 429 while the user's
   * window on the ticket is full, otherwise applied, and counted only once applied: Zendesk counts
   * the updates it made, not a request it refused (a 422, a closed ticket) or failed.
   */
  applyTicketUpdate<T>(
    account: AccountRecord,
    userId: number,
    ticketId: number,
    apply: () => T,
  ): T {
    const limits = account.rateLimit;
    const window = this.windowOf(
      `ticket:${account.subdomain}:${userId}:${ticketId}`,
      limits.ticketUpdatesWindowMs,
    );
    const next = this.figures(window, limits.ticketUpdatesPerUser, limits.ticketUpdatesWindowMs, 1);
    if (next.exceeded) {
      this.refused(account.subdomain, 'ticket_updates_per_user');
      throw rateLimited(
        `Number of allowed updates to ticket ${ticketId} per user per ${minutes(limits.ticketUpdatesWindowMs)} exceeded`,
        next.resetSeconds,
      );
    }
    const applied = apply();
    window.count += 1;
    return applied;
  }

  /** `{total, by_limit}`: the 429s answered on the account since start or the last reset. */
  refusalsOf(subdomain: string): { total: number; by_limit: Record<TLimitKind, number> } {
    const counts = this.refusals.get(subdomain);
    const byLimit = Object.fromEntries(
      LIMIT_KINDS.map((kind) => [kind, counts?.get(kind) ?? 0]),
    ) as Record<TLimitKind, number>;
    return { total: Object.values(byLimit).reduce((a, b) => a + b, 0), by_limit: byLimit };
  }

  /** `GET /_sandbox/accounts/{sub}/rate-limited` reads the 429 counts, `DELETE` starts them again. */
  router(): Router {
    const router = express.Router();
    router.get('/accounts/:subdomain/rate-limited', (req, res) => {
      res.json(this.refusalsOf(req.params.subdomain));
    });
    router.delete('/accounts/:subdomain/rate-limited', (req, res) => {
      this.refusals.delete(req.params.subdomain);
      res.status(204).end();
    });
    return router;
  }
}
