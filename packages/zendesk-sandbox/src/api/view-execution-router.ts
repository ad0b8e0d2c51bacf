// Running a view: `GET /api/v2/views/{id}/execute` (the view's rows with the columns of its output),
// `GET /api/v2/views/{id}/count` and `GET /api/v2/views/count_many?ids=` (how many tickets each
// holds). Each runs the view's conditions against the account's tickets now, so every count is
// `fresh`, where Zendesk may answer a cached count with `fresh: false` while it recounts.
import { Router, type Request } from 'express';
import type { AccountRecord, TicketRecord, UserRecord, ViewRecord } from '../state/model';
import { recordNotFound } from '../state/sandbox-state';
import type { SandboxUrls } from '../state/urls';
import { columnKey, executionOf } from '../views/view-columns';
import { ticketsOfView, viewVisibleTo } from '../views/view-tickets';
import { requireScope } from './authenticate';
import { caller, type SandboxContext } from './context';
import { badRequest } from './errors';
import { paginate } from './pagination';

/** Count Tickets in Many Views takes at most this many ids (Zendesk's reference: "Up to 20"). */
const MAX_COUNT_MANY = 20;

/** Where a row carries each system column's value (Zendesk's rows name the ticket property). */
const ROW_VALUES: Record<string, (ticket: TicketRecord) => [string, unknown]> = {
  description: (t) => ['subject', t.subject],
  requester: (t) => ['requester_id', t.requester_id],
  assignee: (t) => ['assignee_id', t.assignee_id],
  group: (t) => ['group_id', t.group_id],
  created: (t) => ['created', t.created_at],
  updated: (t) => ['updated', t.updated_at],
  status: (t) => ['status', t.status],
  priority: (t) => ['priority', t.priority],
  type: (t) => ['type', t.type],
};

function rowOf(urls: SandboxUrls, account: AccountRecord, view: ViewRecord, ticket: TicketRecord) {
  const row: Record<string, unknown> = {};
  for (const column of view.output.columns) {
    const key = columnKey(column);
    if (typeof key === 'number') {
      row[String(key)] = ticket.custom_fields.find((field) => field.id === key)?.value ?? null;
      continue;
    }
    const value = ROW_VALUES[key];
    if (value) {
      const [name, cell] = value(ticket);
      row[name] = cell;
    } else if (key !== 'nice_id') row[key] = null;
  }
  row.ticket = {
    id: ticket.id,
    url: urls.api(account.subdomain, `tickets/${ticket.id}.json`),
    subject: ticket.subject,
    description: ticket.description,
    status: ticket.status,
    type: ticket.type,
    priority: ticket.priority,
  };
  return row;
}

function countOf(urls: SandboxUrls, account: AccountRecord, view: ViewRecord) {
  const value = ticketsOfView(account, view, null, 'asc').length;
  return {
    view_id: view.id,
    url: urls.api(account.subdomain, `views/${view.id}/count.json`),
    value,
    pretty: String(value),
    fresh: true,
  };
}

export function viewExecutionRouter(ctx: SandboxContext): Router {
  const router = Router();
  const { urls } = ctx;
  const read = requireScope(null, 'read');

  const find = (req: Request, account: AccountRecord, user: UserRecord): ViewRecord => {
    const view = account.views.get(Number(req.params.id));
    if (!view || !viewVisibleTo(user, view)) throw recordNotFound();
    return view;
  };

  // Views the caller cannot see, and ids of no view, are left out (Zendesk lists what it counted).
  router.get('/api/v2/views/count_many{.json}', read, (req, res) => {
    const { account, user } = caller(res);
    const ids = String(req.query.ids ?? '')
      .split(',')
      .filter((id) => id.trim() !== '')
      .map(Number);
    if (ids.length === 0 || ids.some((id) => !Number.isInteger(id)))
      throw badRequest('ids must be a comma-separated list of view ids');
    if (ids.length > MAX_COUNT_MANY) throw badRequest(`At most ${MAX_COUNT_MANY} view ids`);
    const views = ids
      .map((id) => account.views.get(id))
      .filter((view) => view !== undefined && viewVisibleTo(user, view)) as ViewRecord[];
    res.json({ view_counts: views.map((view) => countOf(urls, account, view)) });
  });

  router.get('/api/v2/views/:id/count{.json}', read, (req, res) => {
    const { account, user } = caller(res);
    res.json({ view_count: countOf(urls, account, find(req, account, user)) });
  });

  router.get('/api/v2/views/:id/execute{.json}', read, (req, res) => {
    const { account, user } = caller(res);
    const view = find(req, account, user);
    const sortBy = typeof req.query.sort_by === 'string' ? req.query.sort_by : view.output.sort_by;
    const order =
      typeof req.query.sort_order === 'string' ? req.query.sort_order : view.output.sort_order;
    if (order !== 'asc' && order !== 'desc') throw badRequest('sort_order must be asc or desc');
    const tickets = ticketsOfView(account, view, sortBy, order);
    const page = paginate(req, tickets, urls.origin + req.originalUrl);
    const { columns } = executionOf(urls, account, view.output);
    res.json({
      view: { id: view.id, url: urls.api(account.subdomain, `views/${view.id}.json`) },
      rows: page.items.map((ticket) => rowOf(urls, account, view, ticket)),
      columns,
      groups: [],
      ...page.envelope,
    });
  });

  return router;
}
