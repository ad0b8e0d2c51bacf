// Zendesk's Views API: shared and personal ticket views with their conditions and output, and the
// tickets a view holds now (GET /api/v2/views/{id}/tickets runs its conditions). A request names
// its conditions in top-level `all` and `any` arrays; the answer shows them under `conditions`
// and the output under the read-only `execution`, as Zendesk's reference does.
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { AccountRecord, UserRecord, ViewRecord } from '../state/model';
import { recordInvalid, recordNotFound } from '../state/sandbox-state';
import {
  columnKey,
  columnProblem,
  DEFAULT_VIEW_OUTPUT,
  MAX_VIEW_COLUMNS,
  UNSORTABLE_COLUMNS,
} from '../views/view-columns';
import { REQUIRED_ALL_FIELDS, viewConditionProblem } from '../views/view-conditions';
import { ticketsOfView, viewVisibleTo } from '../views/view-tickets';
import { serializeView } from '../views/serialize-view';
import { requireScope } from './authenticate';
import { caller, type SandboxContext } from './context';
import { badRequest } from './errors';
import { paginate } from './pagination';
import { serializeTicket } from './serialize';

const ZCondition = z.object({
  field: z.string(),
  operator: z.string(),
  value: z.unknown().optional(),
});
const ZId = z.union([z.number().int(), z.string().max(20).regex(/^\d+$/)]).transform(Number);
const ZOrder = z.enum(['asc', 'desc']);

const ZViewFields = z.object({
  title: z.string().optional(),
  description: z.string().nullable().optional(),
  active: z.boolean().optional(),
  position: z.number().int().optional(),
  all: z.array(ZCondition).optional(),
  any: z.array(ZCondition).optional(),
  output: z
    .object({
      columns: z.array(z.union([z.string(), z.number().int()])).optional(),
      group_by: z.string().nullable().optional(),
      group_order: ZOrder.optional(),
      sort_by: z.string().nullable().optional(),
      sort_order: ZOrder.optional(),
    })
    .optional(),
  restriction: z
    .object({
      type: z.enum(['Group', 'User']),
      id: ZId.optional(),
      ids: z.array(ZId).optional(),
    })
    .nullable()
    .optional(),
});
type TViewFields = z.infer<typeof ZViewFields>;

const ZViewBody = z.object({ view: ZViewFields });

type Details = Record<string, { description: string; error: string }[]>;

function validate(account: AccountRecord, view: ViewRecord): void {
  const details: Details = {};
  const add = (key: string, description: string, error = 'InvalidValue') =>
    (details[key] ??= []).push({ description, error });
  if (!view.title.trim()) add('title', 'Title: cannot be blank', 'BlankValue');
  if (!view.conditions.all.some((condition) => REQUIRED_ALL_FIELDS.includes(condition.field)))
    add(
      'conditions',
      'Conditions: the "all" conditions must check at least one of status, type, group_id, assignee_id or requester_id',
    );
  for (const condition of [...view.conditions.all, ...view.conditions.any]) {
    const problem = viewConditionProblem(account, condition);
    if (problem) add('conditions', `Conditions: ${problem}`);
  }
  const { output } = view;
  if (output.columns.length === 0) add('output', 'Output: columns cannot be blank', 'BlankValue');
  if (output.columns.length > MAX_VIEW_COLUMNS)
    add('output', `Output: at most ${MAX_VIEW_COLUMNS} columns`);
  for (const column of output.columns) {
    const problem = columnProblem(account, column);
    if (problem) add('output', `Output: ${problem}`);
  }
  for (const by of [output.group_by, output.sort_by]) {
    if (by === null) continue;
    const problem = columnProblem(account, by);
    if (problem) add('output', `Output: ${problem}`);
    else if (UNSORTABLE_COLUMNS.has(by)) add('output', `Output: cannot group or sort by ${by}`);
  }
  if (view.restriction) {
    const { type, id, ids } = view.restriction;
    const named = [...(ids ?? []), ...(Number.isNaN(id) ? [] : [id])];
    const known = (each: number) =>
      type === 'User' ? account.users.has(each) : account.groups.has(each);
    if (named.length === 0 || !named.every(known))
      add('restriction', `Restriction: no such ${type.toLowerCase()}`);
  }
  if (Object.keys(details).length > 0) throw recordInvalid(details);
}

function restrictionOf(input: TViewFields['restriction']): ViewRecord['restriction'] {
  if (!input) return null;
  const id = input.id ?? input.ids?.[0] ?? Number.NaN;
  return input.ids ? { type: input.type, id, ids: input.ids } : { type: input.type, id };
}

function outputOf(input: TViewFields['output'], base: ViewRecord['output']): ViewRecord['output'] {
  if (!input) return base;
  return {
    columns: (input.columns ?? base.columns).map(columnKey),
    group_by: input.group_by === undefined ? base.group_by : input.group_by,
    group_order: input.group_order ?? base.group_order,
    sort_by: input.sort_by === undefined ? base.sort_by : input.sort_by,
    sort_order: input.sort_order ?? base.sort_order,
  };
}

const ACCESS: Record<string, (view: ViewRecord) => boolean> = {
  personal: (view) => view.restriction?.type === 'User',
  shared: (view) => view.restriction?.type !== 'User',
  account: (view) => view.restriction === null,
};

export function viewsRouter(ctx: SandboxContext): Router {
  const router = Router();
  const { state, urls } = ctx;
  const read = requireScope(null, 'read');
  // Shared views are an admin's to change (an agent's own personal views are not imitated).
  const write = requireScope(null, 'write', 'admin');

  const find = (req: Request, account: AccountRecord, user: UserRecord): ViewRecord => {
    const view = account.views.get(Number(req.params.id));
    if (!view || !viewVisibleTo(user, view)) throw recordNotFound();
    return view;
  };

  const parseBody = (req: Request): TViewFields => {
    const parsed = ZViewBody.safeParse(req.body);
    if (!parsed.success) throw badRequest('Expected a JSON body {"view": {...}}');
    return parsed.data.view;
  };

  const list = (onlyActive: boolean) => (req: Request, res: Response) => {
    const { account, user } = caller(res);
    const access = typeof req.query.access === 'string' ? ACCESS[req.query.access] : undefined;
    if (typeof req.query.access === 'string' && !access)
      throw badRequest('access must be personal, shared or account');
    const active = onlyActive
      ? true
      : req.query.active === undefined
        ? undefined
        : req.query.active === 'true';
    const views = [...account.views.values()]
      .filter((view) => viewVisibleTo(user, view))
      .filter((view) => active === undefined || view.active === active)
      .filter((view) => !access || access(view))
      .sort((a, b) => a.position - b.position || a.id - b.id);
    const page = paginate(req, views, urls.origin + req.originalUrl);
    res.json({
      views: page.items.map((view) => serializeView(urls, account, view)),
      ...page.envelope,
    });
  };

  router.get('/api/v2/views{.json}', read, list(false));
  router.get('/api/v2/views/active{.json}', read, list(true));

  router.get('/api/v2/views/:id{.json}', read, (req, res) => {
    const { account, user } = caller(res);
    res.json({ view: serializeView(urls, account, find(req, account, user)) });
  });

  // Zendesk's reference answers Create View with 200 (not 201, unlike triggers) and the view.
  router.post('/api/v2/views{.json}', write, (req, res) => {
    const { account } = caller(res);
    const input = parseBody(req);
    const now = state.isoNow();
    const view: ViewRecord = {
      id: state.id(),
      title: input.title ?? '',
      description: input.description ?? null,
      active: input.active ?? true,
      position:
        input.position ?? Math.max(0, ...[...account.views.values()].map((v) => v.position)) + 1,
      conditions: { all: input.all ?? [], any: input.any ?? [] },
      output: outputOf(input.output, DEFAULT_VIEW_OUTPUT),
      restriction: restrictionOf(input.restriction),
      created_at: now,
      updated_at: now,
    };
    validate(account, view);
    account.views.set(view.id, view);
    res.json({ view: serializeView(urls, account, view) });
  });

  // Each condition array given replaces the view's; one not given is kept.
  router.put('/api/v2/views/:id{.json}', write, (req, res) => {
    const { account, user } = caller(res);
    const existing = find(req, account, user);
    const input = parseBody(req);
    const next: ViewRecord = {
      ...existing,
      title: input.title ?? existing.title,
      description: input.description === undefined ? existing.description : input.description,
      active: input.active ?? existing.active,
      position: input.position ?? existing.position,
      conditions: {
        all: input.all ?? existing.conditions.all,
        any: input.any ?? existing.conditions.any,
      },
      output: outputOf(input.output, existing.output),
      restriction:
        input.restriction === undefined ? existing.restriction : restrictionOf(input.restriction),
      updated_at: state.isoNow(),
    };
    validate(account, next);
    account.views.set(next.id, next);
    res.json({ view: serializeView(urls, account, next) });
  });

  router.delete('/api/v2/views/:id{.json}', write, (req, res) => {
    const { account, user } = caller(res);
    account.views.delete(find(req, account, user).id);
    res.status(204).end();
  });

  // The view's tickets now: its conditions run against every ticket of the account.
  router.get('/api/v2/views/:id/tickets{.json}', read, (req, res) => {
    const { account, user } = caller(res);
    const view = find(req, account, user);
    const sortBy = typeof req.query.sort_by === 'string' ? req.query.sort_by : view.output.sort_by;
    const order = (
      typeof req.query.sort_order === 'string' ? req.query.sort_order : view.output.sort_order
    ) as 'asc' | 'desc';
    if (order !== 'asc' && order !== 'desc') throw badRequest('sort_order must be asc or desc');
    const tickets = ticketsOfView(account, view, sortBy, order);
    const page = paginate(req, tickets, urls.origin + req.originalUrl);
    res.json({
      tickets: page.items.map((ticket) => serializeTicket(urls, account, ticket)),
      ...page.envelope,
    });
  });

  return router;
}
