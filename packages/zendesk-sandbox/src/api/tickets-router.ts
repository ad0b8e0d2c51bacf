import { Router, type Request } from 'express';
import { z } from 'zod';
import type { TicketChange } from '../state/ticket-change';
import { ZTicketInput } from '../state/ticket-input';
import { recordNotFound } from '../state/sandbox-state';
import { requireScope } from './authenticate';
import { caller, type SandboxContext } from './context';
import { badRequest } from './errors';
import { paginate } from './pagination';
import { serializeAudit, serializeComment, serializeTicket, serializeUser } from './serialize';

const ZTicketBody = z.object({ ticket: ZTicketInput });

function ticketId(req: Request): number {
  const id = Number(req.params.id);
  if (!Number.isInteger(id) || id < 1) throw recordNotFound();
  return id;
}

/** The audit of a write's answer; an update that changed nothing is answered with an empty one. */
function auditOf(change: TicketChange) {
  return serializeAudit(
    change.audit ?? {
      id: change.auditId,
      ticket_id: change.ticket.id,
      created_at: change.ticket.updated_at,
      author_id: change.actor.id,
      via_channel: change.channel,
      custom: change.metadata,
      events: [],
    },
  );
}

export function ticketsRouter(ctx: SandboxContext): Router {
  const router = Router();
  const { urls, tickets } = ctx;

  router.get('/api/v2/tickets{.json}', requireScope('tickets', 'read'), (req, res) => {
    const { account } = caller(res);
    const all = [...account.tickets.values()].sort((a, b) => a.id - b.id);
    const page = paginate(req, all, urls.origin + req.originalUrl);
    res.json({
      tickets: page.items.map((t) => serializeTicket(urls, account, t)),
      ...page.envelope,
    });
  });

  router.get('/api/v2/tickets/show_many{.json}', requireScope('tickets', 'read'), (req, res) => {
    const { account } = caller(res);
    const ids = String(req.query.ids ?? '')
      .split(',')
      .map(Number);
    const found = ids.map((id) => account.tickets.get(id)).filter((t) => t !== undefined);
    res.json({
      tickets: found.map((t) => serializeTicket(urls, account, t)),
      next_page: null,
      previous_page: null,
      count: found.length,
    });
  });

  router.get('/api/v2/tickets/:id{.json}', requireScope('tickets', 'read'), (req, res) => {
    const { account } = caller(res);
    res.json({ ticket: serializeTicket(urls, account, tickets.get(account, ticketId(req))) });
  });

  router.post('/api/v2/tickets{.json}', requireScope('tickets', 'write'), (req, res) => {
    const { account, user } = caller(res);
    const body = ZTicketBody.safeParse(req.body);
    if (!body.success) throw badRequest('Expected a JSON body {"ticket": {...}}');
    // Zendesk: a repeated Idempotency-Key answers the first create (x-idempotency-lookup: hit).
    const key = req.get('idempotency-key');
    const seen = key ? account.idempotencyKeys.get(key) : undefined;
    const earlier = seen === undefined ? undefined : account.tickets.get(seen);
    if (earlier) {
      res
        .status(201)
        .set('x-idempotency-lookup', 'hit')
        .location(urls.api(account.subdomain, `tickets/${earlier.id}.json`));
      res.json({ ticket: serializeTicket(urls, account, earlier) });
      return;
    }
    const change = tickets.create(account, body.data.ticket, user, 'api');
    if (key) account.idempotencyKeys.set(key, change.ticket.id);
    res.status(201).location(urls.api(account.subdomain, `tickets/${change.ticket.id}.json`));
    res.json({
      ticket: serializeTicket(urls, account, change.ticket),
      audit: auditOf(change),
    });
  });

  router.put('/api/v2/tickets/:id{.json}', requireScope('tickets', 'write'), (req, res) => {
    const { account, user } = caller(res);
    const id = ticketId(req);
    ctx.limits.takeUpdateTicket(account);
    const body = ZTicketBody.safeParse(req.body);
    if (!body.success) throw badRequest('Expected a JSON body {"ticket": {...}}');
    const input = body.data.ticket;
    const change = ctx.limits.applyTicketUpdate(account, user.id, id, () =>
      tickets.update(account, id, input, user, 'api'),
    );
    res.json({
      ticket: serializeTicket(urls, account, change.ticket),
      audit: auditOf(change),
    });
  });

  router.get('/api/v2/tickets/:id/comments{.json}', requireScope('tickets', 'read'), (req, res) => {
    const { account } = caller(res);
    const ticket = tickets.get(account, ticketId(req));
    const order = String(req.query.sort_order ?? 'asc');
    if (order !== 'asc' && order !== 'desc') throw badRequest('sort_order must be asc or desc');
    const comments = [...(account.comments.get(ticket.id) ?? [])];
    if (order === 'desc') comments.reverse();
    const page = paginate(req, comments, urls.origin + req.originalUrl);
    const includes = String(req.query.include ?? '').split(',');
    const body: Record<string, unknown> = {
      comments: page.items.map((c) => serializeComment(urls, account, c)),
      ...page.envelope,
    };
    if (includes.includes('users')) {
      const ids = [...new Set(page.items.map((c) => c.author_id))];
      body.users = ids
        .map((id) => account.users.get(id))
        .filter((u) => u !== undefined)
        .map((u) => serializeUser(urls, account, u));
    }
    res.json(body);
  });

  // Zendesk: "The Ticket Audits endpoints require a global "read" scope ... You can't access the
  // endpoints using the "auditlogs:read" or "tickets:read" scopes." Oldest first, as Zendesk lists them.
  router.get('/api/v2/tickets/:id/audits{.json}', requireScope(null, 'read'), (req, res) => {
    const { account } = caller(res);
    const ticket = tickets.get(account, ticketId(req));
    const audits = account.audits.get(ticket.id) ?? [];
    const page = paginate(req, audits, urls.origin + req.originalUrl);
    res.json({ audits: page.items.map(serializeAudit), ...page.envelope });
  });

  return router;
}
