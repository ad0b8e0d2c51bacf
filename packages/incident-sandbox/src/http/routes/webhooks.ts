import { Router, type Request, type Response } from 'express';
import { WEBHOOK_EVENTS, type TWebhookEvent } from '../../domain/vocabulary';
import { newSigningSecret } from '../../state/ids';
import type { WebhookSubscriptionRecord } from '../../state/model';
import { actingClient, apiKeyOf, clientScope, requestedClientId } from '../auth';
import type { SandboxContext } from '../context';
import { badRequest, notFound } from '../errors';
import { validateWebhookCreateBody, validateWebhookUpdateBody } from '../request-validation';

function toWire(s: WebhookSubscriptionRecord, withSecret = false) {
  return {
    id: s.id,
    clientId: s.clientId,
    url: s.url,
    events: s.events,
    description: s.description,
    active: s.active,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    ...(withSecret ? { secret: s.secret } : {}),
  };
}

function parseUrl(value: unknown): string {
  if (typeof value !== 'string') throw badRequest('url', 'must be a string');
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  } catch {
    // falls through to the validation error
  }
  throw badRequest('url', 'must be an absolute http(s) URL');
}

function parseEvents(value: unknown): TWebhookEvent[] {
  if (!Array.isArray(value) || value.length === 0)
    throw badRequest('events', 'must be a non-empty array of event names');
  for (const name of value) {
    if (typeof name !== 'string' || !(WEBHOOK_EVENTS as readonly string[]).includes(name)) {
      throw badRequest(
        'events',
        `unknown event '${String(name)}'; expected one of ${WEBHOOK_EVENTS.join(', ')}`,
      );
    }
  }
  return [...new Set(value as TWebhookEvent[])];
}

function body(req: Request): Record<string, unknown> {
  const b: unknown = req.body ?? {};
  if (typeof b !== 'object' || b === null || Array.isArray(b))
    throw badRequest('body', 'must be a JSON object');
  return b as Record<string, unknown>;
}

/** /v1/webhooks: subscriptions per client; the secret is shown on creation and rotation only. */
export function webhookRoutes({ store, dispatcher }: SandboxContext): Router {
  const router = Router();

  const find = (req: Request, res: Response): WebhookSubscriptionRecord => {
    const scope = clientScope(apiKeyOf(res), requestedClientId(req));
    const sub = store.state.webhooks.find(
      (w) => w.id === req.params.id && scope.includes(w.clientId),
    );
    if (!sub) throw notFound('Webhook subscription');
    return sub;
  };

  router.post('/webhooks', (req, res) => {
    const b = body(req);
    const clientId = actingClient(apiKeyOf(res), requestedClientId(req));
    validateWebhookCreateBody(b);
    const url = parseUrl(b.url);
    const events = parseEvents(b.events);
    if (typeof b.description !== 'string')
      throw badRequest('description', 'is required and must be a string');
    const now = store.now();
    const sub: WebhookSubscriptionRecord = {
      id: store.newId('webhook', 'wh_', 16),
      clientId,
      url,
      events,
      description: b.description,
      active: true,
      secret: newSigningSecret(),
      createdAt: now,
      updatedAt: now,
    };
    store.state.webhooks.push(sub);
    store.changed();
    res.status(201).json({ message: 'Webhook subscription created', data: toWire(sub, true) });
  });

  router.get('/webhooks', (req, res) => {
    const scope = clientScope(apiKeyOf(res), requestedClientId(req));
    res.json({
      message: 'success',
      data: store.state.webhooks.filter((w) => scope.includes(w.clientId)).map((w) => toWire(w)),
    });
  });

  router.get('/webhooks/:id', (req, res) => {
    res.json({ message: 'success', data: toWire(find(req, res)) });
  });

  router.patch('/webhooks/:id', (req, res) => {
    const sub = find(req, res);
    const b = body(req);
    validateWebhookUpdateBody(b);
    if (b.url !== undefined) sub.url = parseUrl(b.url);
    if (b.events !== undefined) sub.events = parseEvents(b.events);
    if (b.description !== undefined) {
      if (typeof b.description !== 'string') throw badRequest('description', 'must be a string');
      sub.description = b.description;
    }
    sub.updatedAt = store.now();
    store.changed();
    res.json({ message: 'Webhook subscription updated', data: toWire(sub) });
  });

  router.delete('/webhooks/:id', (req, res) => {
    const sub = find(req, res);
    store.state.webhooks = store.state.webhooks.filter((w) => w.id !== sub.id);
    store.changed();
    res.json({ message: 'Webhook subscription deleted' });
  });

  router.post('/webhooks/:id/test', (req, res) => {
    const delivery = dispatcher.sendTest(find(req, res));
    store.changed();
    res.json({ message: 'Test delivery queued', data: { deliveryId: delivery.id } });
  });

  const rotate = (req: Request, res: Response) => {
    const sub = find(req, res);
    sub.secret = newSigningSecret();
    sub.updatedAt = store.now();
    store.changed();
    res.json({ message: 'Signing secret rotated', data: toWire(sub, true) });
  };
  router.post('/webhooks/:id/rotate-secret', rotate);
  router.post('/webhooks/:id/rotate', rotate);

  return router;
}
