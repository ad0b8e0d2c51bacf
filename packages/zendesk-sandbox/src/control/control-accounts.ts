// The control API's accounts: created (with limits and users), listed, closed, and their settings
// (rate limits, default language, search lag, webhook duplicates and deliveries).
import type { Request, Router } from 'express';
import { z } from 'zod';
import { KNOWN_LOCALES } from '../api/locales-router';
import { serializeUser } from '../api/serialize';
import type { SandboxContext } from '../api/context';
import type { AccountRecord } from '../state/model';
import { DEFAULT_ACCOUNT_LIMITS } from '../state/sandbox-state';
import { accountOf } from './control-lookups';
import { ZUserInput } from './control-users';
import type { TLimitKind } from './rate-limiter';

/** The account's limits as the control API names them; each optional, the others stay as they are. */
const ZLimitsInput = z.object({
  requests_per_minute: z.number().int().positive().optional(),
  window_ms: z.number().int().positive().optional(),
  update_ticket_per_minute: z.number().int().positive().optional(),
  update_ticket_window_ms: z.number().int().positive().optional(),
  ticket_updates_per_user: z.number().int().positive().optional(),
  ticket_updates_window_ms: z.number().int().positive().optional(),
  max_active_jobs: z.number().int().positive().optional(),
});
const ZAccountInput = ZLimitsInput.extend({
  subdomain: z.string(),
  search_lag_ms: z.number().int().min(0).optional(),
  users: z.array(ZUserInput).optional(),
});

/**
 * Sets the limits given; a count given without its window gets Zendesk's window back. Returns the
 * limits whose figures were given, so their windows start afresh.
 */
function applyLimits(account: AccountRecord, input: z.infer<typeof ZLimitsInput>): TLimitKind[] {
  const limits = account.rateLimit;
  const changed: TLimitKind[] = [];
  if (input.requests_per_minute !== undefined || input.window_ms !== undefined)
    changed.push('plan');
  if (input.update_ticket_per_minute !== undefined || input.update_ticket_window_ms !== undefined)
    changed.push('update_ticket');
  if (input.ticket_updates_per_user !== undefined || input.ticket_updates_window_ms !== undefined)
    changed.push('ticket_updates_per_user');
  if (input.requests_per_minute !== undefined) {
    limits.requestsPerMinute = input.requests_per_minute;
    limits.windowMs = DEFAULT_ACCOUNT_LIMITS.windowMs;
  }
  if (input.window_ms !== undefined) limits.windowMs = input.window_ms;
  if (input.update_ticket_per_minute !== undefined) {
    limits.updateTicketPerMinute = input.update_ticket_per_minute;
    limits.updateTicketWindowMs = DEFAULT_ACCOUNT_LIMITS.updateTicketWindowMs;
  }
  if (input.update_ticket_window_ms !== undefined)
    limits.updateTicketWindowMs = input.update_ticket_window_ms;
  if (input.ticket_updates_per_user !== undefined) {
    limits.ticketUpdatesPerUser = input.ticket_updates_per_user;
    limits.ticketUpdatesWindowMs = DEFAULT_ACCOUNT_LIMITS.ticketUpdatesWindowMs;
  }
  if (input.ticket_updates_window_ms !== undefined)
    limits.ticketUpdatesWindowMs = input.ticket_updates_window_ms;
  if (input.max_active_jobs !== undefined) limits.maxActiveJobs = input.max_active_jobs;
  return changed;
}

function accountSummary(account: AccountRecord) {
  return {
    id: account.id,
    subdomain: account.subdomain,
    requests_per_minute: account.rateLimit.requestsPerMinute,
    rate_limit_window_ms: account.rateLimit.windowMs,
    limits: {
      requests_per_minute: account.rateLimit.requestsPerMinute,
      window_ms: account.rateLimit.windowMs,
      update_ticket_per_minute: account.rateLimit.updateTicketPerMinute,
      update_ticket_window_ms: account.rateLimit.updateTicketWindowMs,
      ticket_updates_per_user: account.rateLimit.ticketUpdatesPerUser,
      ticket_updates_window_ms: account.rateLimit.ticketUpdatesWindowMs,
      max_active_jobs: account.rateLimit.maxActiveJobs,
    },
    search_lag_ms: account.searchLagMs,
    users: account.users.size,
    tickets: account.tickets.size,
  };
}

export function accountControlRoutes(router: Router, ctx: SandboxContext): void {
  const { state, urls } = ctx;
  const account = (req: Request) => accountOf(state, req);

  router.get('/ready', (_req, res) => {
    res.json({ ready: true, accounts: state.accounts.size });
  });

  router.get('/accounts', (_req, res) => {
    res.json({ accounts: [...state.accounts.values()].map(accountSummary) });
  });

  router.post('/accounts', (req, res) => {
    const input = ZAccountInput.parse(req.body);
    const created = state.createAccount(input.subdomain);
    applyLimits(created, input);
    if (input.search_lag_ms !== undefined) created.searchLagMs = input.search_lag_ms;
    const users = (input.users ?? []).map((u) =>
      serializeUser(urls, created, state.createUser(created, u)),
    );
    res.status(201).json({ account: accountSummary(created), users });
  });

  // The account closes and its subdomain is free to register again (as a new account, new id):
  // what a connector bound to the old account id must notice.
  router.delete('/accounts/:subdomain', (req, res) => {
    const acc = account(req);
    state.accounts.delete(acc.subdomain);
    for (const token of state.tokens) if (token.subdomain === acc.subdomain) token.revoked = true;
    for (const [code, record] of state.codes)
      if (record.subdomain === acc.subdomain) state.codes.delete(code);
    res.status(204).end();
  });

  router.put('/accounts/:subdomain/rate-limit', (req, res) => {
    const acc = account(req);
    ctx.limits.restartWindows(acc.subdomain, applyLimits(acc, ZLimitsInput.parse(req.body)));
    res.json({ account: accountSummary(acc) });
  });

  /** The account's default language (what `GET /api/v2/locales` marks `default`). */
  router.put('/accounts/:subdomain/locale', (req, res) => {
    const acc = account(req);
    const { locale } = z
      .object({ locale: z.enum(KNOWN_LOCALES.map((known) => known.locale)) })
      .parse(req.body);
    acc.defaultLocale = locale;
    state.markChanged();
    res.json({ default_locale: acc.defaultLocale });
  });

  router.put('/accounts/:subdomain/search-lag', (req, res) => {
    const acc = account(req);
    acc.searchLagMs = z.object({ ms: z.number().int().min(0) }).parse(req.body).ms;
    res.json({ account: accountSummary(acc) });
  });

  router.post('/accounts/:subdomain/webhook-duplicates', (req, res) => {
    const acc = account(req);
    acc.duplicateNextDeliveries = z
      .object({ count: z.number().int().min(0).default(1) })
      .parse(req.body ?? {}).count;
    res.json({ duplicate_next_deliveries: acc.duplicateNextDeliveries });
  });

  router.get('/accounts/:subdomain/webhook-deliveries', async (req, res) => {
    const acc = account(req);
    if (req.query.wait === 'true') await ctx.dispatcher.idle();
    res.json({ deliveries: acc.deliveries });
  });
}
