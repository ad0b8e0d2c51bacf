import { Router, type Request } from 'express';
import { z } from 'zod';
import type { AccountRecord, TriggerRecord } from '../state/model';
import { recordInvalid, recordNotFound } from '../state/sandbox-state';
import { unsupportedCondition } from '../triggers/conditions';
import { requireScope } from './authenticate';
import { caller, type SandboxContext } from './context';
import { badRequest } from './errors';
import { paginate } from './pagination';
import { serializeTrigger } from './serialize';

const ZCondition = z.object({
  field: z.string(),
  operator: z.string(),
  value: z.unknown().optional(),
});
const ZAction = z.object({ field: z.string(), value: z.unknown() });

const ZTriggerFields = z.object({
  title: z.string().optional(),
  description: z.string().nullable().optional(),
  active: z.boolean().optional(),
  position: z.number().int().optional(),
  conditions: z
    .object({ all: z.array(ZCondition).optional(), any: z.array(ZCondition).optional() })
    .optional(),
  actions: z.array(ZAction).optional(),
  category_id: z.string().optional(),
});

const ZTriggerBody = z.object({ trigger: ZTriggerFields });

type Details = Record<string, { description: string; error: string }[]>;

function validate(
  account: AccountRecord,
  trigger: Pick<TriggerRecord, 'title' | 'conditions' | 'actions'>,
): void {
  const details: Details = {};
  const add = (key: string, description: string, error = 'InvalidValue') =>
    (details[key] ??= []).push({ description, error });
  if (!trigger.title.trim()) add('title', 'Title: cannot be blank', 'BlankValue');
  if (trigger.conditions.all.length + trigger.conditions.any.length === 0)
    add('conditions', 'Conditions: cannot be blank', 'BlankValue');
  for (const condition of [...trigger.conditions.all, ...trigger.conditions.any]) {
    const problem = unsupportedCondition(condition);
    if (problem) add('conditions', `Conditions: ${problem}`);
  }
  if (trigger.actions.length === 0) add('actions', 'Actions: cannot be blank', 'BlankValue');
  for (const action of trigger.actions) {
    if (action.field !== 'notification_webhook') continue;
    const [webhookId, body] = Array.isArray(action.value) ? action.value : [];
    if (typeof webhookId !== 'string' || !account.webhooks.has(webhookId))
      add('actions', 'Actions: notification_webhook names an unknown webhook');
    if (typeof body !== 'string')
      add('actions', 'Actions: notification_webhook needs [webhook_id, body]');
  }
  if (Object.keys(details).length > 0) throw recordInvalid(details);
}

export function triggersRouter(ctx: SandboxContext): Router {
  const router = Router();
  const { state, urls } = ctx;
  const read = requireScope('triggers', 'read', 'admin');
  const write = requireScope('triggers', 'write', 'admin');

  const find = (req: Request, account: AccountRecord): TriggerRecord => {
    const trigger = account.triggers.get(Number(req.params.id));
    if (!trigger) throw recordNotFound();
    return trigger;
  };

  router.get('/api/v2/triggers{.json}', read, (req, res) => {
    const { account } = caller(res);
    const active = req.query.active === undefined ? undefined : req.query.active === 'true';
    const all = [...account.triggers.values()]
      .filter((t) => active === undefined || t.active === active)
      .sort((a, b) => a.position - b.position || a.id - b.id);
    const page = paginate(req, all, urls.origin + req.originalUrl);
    res.json({
      triggers: page.items.map((t) => serializeTrigger(urls, account, t)),
      ...page.envelope,
    });
  });

  router.get('/api/v2/triggers/active{.json}', read, (req, res) => {
    const { account } = caller(res);
    const all = [...account.triggers.values()]
      .filter((t) => t.active)
      .sort((a, b) => a.position - b.position || a.id - b.id);
    const page = paginate(req, all, urls.origin + req.originalUrl);
    res.json({
      triggers: page.items.map((t) => serializeTrigger(urls, account, t)),
      ...page.envelope,
    });
  });

  router.get('/api/v2/triggers/:id{.json}', read, (req, res) => {
    const { account } = caller(res);
    res.json({ trigger: serializeTrigger(urls, account, find(req, account)) });
  });

  router.post('/api/v2/triggers{.json}', write, (req, res) => {
    const { account } = caller(res);
    const parsed = ZTriggerBody.safeParse(req.body);
    if (!parsed.success) throw badRequest('Expected a JSON body {"trigger": {...}}');
    const input = parsed.data.trigger;
    const now = state.isoNow();
    const trigger: TriggerRecord = {
      id: state.id(),
      title: input.title ?? '',
      description: input.description ?? null,
      active: input.active ?? true,
      position:
        input.position ?? Math.max(0, ...[...account.triggers.values()].map((t) => t.position)) + 1,
      conditions: { all: input.conditions?.all ?? [], any: input.conditions?.any ?? [] },
      actions: input.actions ?? [],
      created_at: now,
      updated_at: now,
    };
    validate(account, trigger);
    account.triggers.set(trigger.id, trigger);
    res.status(201).location(urls.api(account.subdomain, `triggers/${trigger.id}.json`));
    res.json({ trigger: serializeTrigger(urls, account, trigger) });
  });

  router.put('/api/v2/triggers/:id{.json}', write, (req, res) => {
    const { account } = caller(res);
    const existing = find(req, account);
    const parsed = ZTriggerBody.safeParse(req.body);
    if (!parsed.success) throw badRequest('Expected a JSON body {"trigger": {...}}');
    const input = parsed.data.trigger;
    const next: TriggerRecord = {
      ...existing,
      title: input.title ?? existing.title,
      description: input.description === undefined ? existing.description : input.description,
      active: input.active ?? existing.active,
      position: input.position ?? existing.position,
      conditions: input.conditions
        ? { all: input.conditions.all ?? [], any: input.conditions.any ?? [] }
        : existing.conditions,
      actions: input.actions ?? existing.actions,
      updated_at: state.isoNow(),
    };
    validate(account, next);
    account.triggers.set(next.id, next);
    res.json({ trigger: serializeTrigger(urls, account, next) });
  });

  router.delete('/api/v2/triggers/:id{.json}', write, (req, res) => {
    const { account } = caller(res);
    account.triggers.delete(find(req, account).id);
    res.status(204).end();
  });

  return router;
}
