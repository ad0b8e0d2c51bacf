import express, { Router, type Request } from 'express';
import { z } from 'zod';
import { KNOWN_LOCALES } from '../api/locales-router';
import { serializeAudit, serializeComment, serializeTicket, serializeUser } from '../api/serialize';
import type { SandboxContext } from '../api/context';
import type { TokenService } from '../oauth/token-service';
import { isKnownScope, parseScopes } from '../oauth/scopes';
import { ACCESS_TOKEN_BOUNDS, REFRESH_TOKEN_BOUNDS } from '../oauth/token-lifetimes';
import { addUpload } from '../state/attachments';
import type { AccountRecord } from '../state/model';
import {
  DEFAULT_ACCOUNT_LIMITS,
  recordInvalid,
  recordNotFound,
  SandboxError,
} from '../state/sandbox-state';
import { indexedTickets } from '../state/search-index';
import { ZFaultRule, type FaultInjector } from './faults';
import type { TLimitKind } from './rate-limiter';

const ZRole = z.enum(['admin', 'agent', 'end-user']);
const ZUserInput = z.object({
  name: z.string().min(1),
  email: z.string().email(),
  role: ZRole,
  locale: z.string().optional(),
  time_zone: z.string().optional(),
  role_type: z.number().int().min(0).max(5).nullable().optional(),
  ticket_restriction: z
    .enum(['organization', 'groups', 'assigned', 'requested'])
    .nullable()
    .optional(),
  organization_id: z.number().int().nullable().optional(),
  group_ids: z.array(z.number().int()).optional(),
});
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
const ZClientInput = z.object({
  identifier: z.string().min(1),
  secret: z.string().min(1).optional(),
  name: z.string().min(1).default('OAuth client'),
  redirect_uris: z.array(z.string().url()).default([]),
  kind: z.enum(['confidential', 'public']).default('confidential'),
  /** The account of a local client; omit for a global client. */
  subdomain: z.string().optional(),
  /** The user who created a local client (client_credentials tokens act as them). */
  owner_user_id: z.number().int().optional(),
});
const ZAttachmentInput = z.object({
  file_name: z.string().min(1),
  content_type: z.string().default('application/octet-stream'),
  content_base64: z.string(),
});
const ZCommentControl = z.object({
  author_id: z.number().int(),
  body: z.string().optional(),
  html_body: z.string().optional(),
  public: z.boolean().default(true),
  attachments: z.array(ZAttachmentInput).default([]),
});
const ZTicketControl = z.object({
  requester_id: z.number().int().optional(),
  requester: z.object({ name: z.string().optional(), email: z.string().email() }).optional(),
  subject: z.string().min(1),
  body: z.string().optional(),
  html_body: z.string().optional(),
  tags: z.array(z.string()).optional(),
  custom_fields: z.array(z.object({ id: z.number().int(), value: z.unknown() })).optional(),
  attachments: z.array(ZAttachmentInput).default([]),
});
const ZTokenInput = z.object({
  user_id: z.number().int(),
  scopes: z.union([z.string(), z.array(z.string())]).default('read write'),
  client_id: z.string().optional(),
  expires_in: z
    .number()
    .int()
    .min(ACCESS_TOKEN_BOUNDS.min)
    .max(ACCESS_TOKEN_BOUNDS.max)
    .default(ACCESS_TOKEN_BOUNDS.default),
});
const ZTokenRef = z.object({
  token: z.string().min(1),
  which: z.enum(['access', 'refresh', 'both']).default('both'),
});

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

/** The sandbox's own API under /_sandbox: set-up, acting as people, inspection and fault injection. */
export function controlRouter(
  ctx: SandboxContext,
  tokens: TokenService,
  faults: FaultInjector,
  sandboxClientId: string,
): Router {
  const router = Router();
  const { state, urls, tickets } = ctx;
  router.use(express.json({ limit: '60mb' }));

  const account = (req: Request) => state.requireAccount(String(req.params.subdomain));
  const user = (acc: AccountRecord, id: number) => {
    const found = acc.users.get(id);
    if (!found)
      throw recordInvalid({
        user: [{ description: `User ${id} is not in ${acc.subdomain}`, error: 'InvalidValue' }],
      });
    return found;
  };
  const uploadTokens = (acc: AccountRecord, attachments: z.infer<typeof ZAttachmentInput>[]) =>
    attachments.map((a) => {
      const added = addUpload(
        state,
        acc,
        {
          fileName: a.file_name,
          contentType: a.content_type,
          data: Buffer.from(a.content_base64, 'base64'),
        },
        undefined,
      );
      if (!added) throw new Error('upload failed');
      return added.upload.token;
    });

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

  router.post('/accounts/:subdomain/users', (req, res) => {
    const acc = account(req);
    res
      .status(201)
      .json({ user: serializeUser(urls, acc, state.createUser(acc, ZUserInput.parse(req.body))) });
  });

  // The app's signing key: a new pair, as when Zendesk rotates an app's key.
  router.post('/apps/:appId/rotate-key', (req, res) => {
    const appId = Number(req.params.appId);
    if (!Number.isSafeInteger(appId) || appId <= 0) throw recordNotFound();
    ctx.state.apps.rotateKey(appId);
    res.json({ app_id: appId, public_key: ctx.state.apps.keyOf(appId).publicKeyPem });
  });

  router.post('/accounts/:subdomain/apps/:appId/install', (req, res) => {
    const acc = ctx.state.requireAccount(String(req.params.subdomain));
    const appId = Number(req.params.appId);
    if (!Number.isSafeInteger(appId) || appId <= 0) throw recordNotFound();
    res
      .status(201)
      .json({ installation: { id: ctx.state.apps.install(acc.subdomain, appId), app_id: appId } });
  });

  // The app uninstalled from the account, as an admin does in Admin Center.
  router.delete('/accounts/:subdomain/apps/:appId/install', (req, res) => {
    const acc = ctx.state.requireAccount(String(req.params.subdomain));
    const appId = Number(req.params.appId);
    const installation = ctx.state.apps
      .installationsOf(acc.subdomain)
      .find((i) => i.app_id === appId);
    if (!installation) throw recordNotFound();
    ctx.state.apps.uninstall(acc.subdomain, installation.id);
    res.status(204).end();
  });

  // An admin demoted (or promoted) in Admin Center: what the connector's role re-check must notice.
  router.patch('/accounts/:subdomain/users/:id', (req, res) => {
    const acc = account(req);
    const found = user(acc, Number(req.params.id));
    found.role = z.object({ role: ZRole }).parse(req.body).role;
    found.updated_at = state.isoNow();
    res.json({ user: serializeUser(urls, acc, found) });
  });

  router.get('/accounts/:subdomain/users', (req, res) => {
    const acc = account(req);
    res.json({ users: [...acc.users.values()].map((u) => serializeUser(urls, acc, u)) });
  });

  router.post('/oauth/clients', (req, res) => {
    const input = ZClientInput.parse(req.body);
    const client = state.registerClient({
      identifier: input.identifier,
      ...(input.secret !== undefined ? { secret: input.secret } : {}),
      name: input.name,
      redirect_uri: input.redirect_uris,
      kind: input.kind,
      subdomain: input.subdomain ?? null,
      owner_user_id: input.owner_user_id ?? null,
    });
    res.status(201).json({ client: { ...client, global: client.subdomain === null } });
  });

  router.post('/accounts/:subdomain/tokens', (req, res) => {
    const acc = account(req);
    const input = ZTokenInput.parse(req.body);
    const scopes = Array.isArray(input.scopes) ? input.scopes : parseScopes(input.scopes);
    if (!scopes.every(isKnownScope))
      throw recordInvalid({
        scopes: [{ description: 'Scopes: unknown scope', error: 'InvalidValue' }],
      });
    const client = state.clientFor(acc.subdomain, input.client_id ?? sandboxClientId);
    if (!client)
      throw recordInvalid({
        client_id: [{ description: 'Client: not usable on this account', error: 'InvalidValue' }],
      });
    const token = tokens.issue(acc.subdomain, client, user(acc, input.user_id), scopes, {
      expiresIn: input.expires_in,
      refreshExpiresIn: REFRESH_TOKEN_BOUNDS.default,
      withRefresh: true,
    });
    res.status(201).json({
      access_token: token.access_token,
      refresh_token: token.refresh_token,
      token_type: 'bearer',
      scope: scopes.join(' '),
      expires_in: input.expires_in,
    });
  });

  router.post('/tokens/expire', (req, res) => {
    const input = ZTokenRef.parse(req.body);
    const token = tokens.findAny(input.token);
    if (!token) throw recordNotFound();
    tokens.expire(token, input.which);
    res.json({ expired: input.which });
  });

  router.post('/tokens/revoke', (req, res) => {
    const token = tokens.findAny(ZTokenRef.parse(req.body).token);
    if (!token) throw recordNotFound();
    tokens.revoke(token);
    res.json({ revoked: true });
  });

  // An admin revokes an OAuth client's access to the account (Admin Center, Apps and integrations,
  // OAuth clients): every token of that client on the account ends, access and refresh alike.
  router.post('/accounts/:subdomain/oauth-grants/revoke', (req, res) => {
    const acc = account(req);
    const { client_id: clientId } = z.object({ client_id: z.string().min(1) }).parse(req.body);
    let revoked = 0;
    for (const token of state.tokens) {
      if (token.subdomain !== acc.subdomain || token.client_identifier !== clientId) continue;
      if (token.revoked) continue;
      tokens.revoke(token);
      revoked += 1;
    }
    res.json({ revoked });
  });

  router.post('/accounts/:subdomain/tickets', (req, res) => {
    const acc = account(req);
    const input = ZTicketControl.parse(req.body);
    let requester = input.requester_id !== undefined ? user(acc, input.requester_id) : undefined;
    if (!requester && input.requester) {
      const email = input.requester.email.toLowerCase();
      requester =
        [...acc.users.values()].find((u) => u.email === email) ??
        state.createUser(acc, { name: input.requester.name ?? email, email, role: 'end-user' });
    }
    if (!requester)
      throw recordInvalid({
        requester: [
          { description: 'Requester: give requester_id or requester', error: 'BlankValue' },
        ],
      });
    const change = tickets.create(
      acc,
      {
        subject: input.subject,
        comment: {
          body: input.body,
          html_body: input.html_body,
          uploads: uploadTokens(acc, input.attachments),
        },
        ...(input.tags ? { tags: input.tags } : {}),
        ...(input.custom_fields ? { custom_fields: input.custom_fields } : {}),
      },
      requester,
      'web',
    );
    res.status(201).json({ ticket: serializeTicket(urls, acc, change.ticket) });
  });

  router.post('/accounts/:subdomain/tickets/:id/comments', (req, res) => {
    const acc = account(req);
    const input = ZCommentControl.parse(req.body);
    const author = user(acc, input.author_id);
    if (author.role === 'end-user' && !input.public) {
      throw recordInvalid({
        public: [{ description: 'End users cannot write internal notes', error: 'InvalidValue' }],
      });
    }
    const change = tickets.addCommentAs(
      acc,
      Number(req.params.id),
      {
        body: input.body,
        html_body: input.html_body,
        public: input.public,
        uploads: uploadTokens(acc, input.attachments),
      },
      author,
      'web',
    );
    if (!change.comment)
      throw new SandboxError(422, {
        error: 'RecordInvalid',
        description: 'Comment: cannot be blank',
      });
    res.status(201).json({
      ticket: serializeTicket(urls, acc, change.ticket),
      comment: serializeComment(urls, acc, change.comment),
    });
  });

  router.get('/accounts/:subdomain/tickets/:id', (req, res) => {
    const acc = account(req);
    const ticket = tickets.get(acc, Number(req.params.id));
    const comments = acc.comments.get(ticket.id) ?? [];
    const userIds = new Set([
      ticket.requester_id,
      ticket.submitter_id,
      ...comments.map((c) => c.author_id),
    ]);
    if (ticket.assignee_id !== null) userIds.add(ticket.assignee_id);
    res.json({
      ticket: serializeTicket(urls, acc, ticket),
      comments: comments.map((c) => serializeComment(urls, acc, c)),
      audits: (acc.audits.get(ticket.id) ?? []).map(serializeAudit),
      users: [...userIds]
        .map((id) => acc.users.get(id))
        .filter((u) => u !== undefined)
        .map((u) => serializeUser(urls, acc, u)),
      searchable: indexedTickets(acc, state.now()).some((t) => t.id === ticket.id),
      webhook_deliveries: acc.deliveries.filter((d) => d.ticket_id === ticket.id),
    });
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

  router.post('/faults', (req, res) => {
    res.status(201).json({ fault: faults.add(ZFaultRule.parse(req.body)) });
  });

  router.get('/faults', (_req, res) => {
    res.json({ faults: faults.list() });
  });

  router.delete('/faults', (_req, res) => {
    faults.clear();
    res.status(204).end();
  });

  router.delete('/faults/:id', (req, res) => {
    if (!faults.remove(Number(req.params.id))) throw recordNotFound();
    res.status(204).end();
  });

  return router;
}
