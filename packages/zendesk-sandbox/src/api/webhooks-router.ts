import { Router, type Request } from 'express';
import { ulid } from 'ulid';
import { z } from 'zod';
import type { WebhookRecord } from '../state/model';
import { randomHex, recordInvalid, recordNotFound } from '../state/sandbox-state';
import { ZENDESK_TEST_SIGNING_SECRET } from '../triggers/sign-webhook';
import { authHeaders } from '../triggers/webhook-dispatcher';
import { requireScope } from './authenticate';
import { caller, type SandboxContext } from './context';
import { badRequest } from './errors';
import { paginate } from './pagination';
import { serializeWebhook } from './serialize';

const ZAuthentication = z.object({
  type: z.enum(['basic_auth', 'bearer_token', 'api_key']),
  data: z.record(z.string(), z.string()).default({}),
  add_position: z.string().default('header'),
});

const ZWebhookFields = z.object({
  name: z.string().optional(),
  description: z.string().optional(),
  endpoint: z.string().optional(),
  http_method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
  request_format: z.enum(['json', 'xml', 'form_encoded']).optional(),
  status: z.enum(['active', 'inactive']).optional(),
  subscriptions: z.array(z.string()).optional(),
  authentication: ZAuthentication.nullable().optional(),
  custom_headers: z.record(z.string(), z.string()).optional(),
  signing_secret: z
    .object({ secret: z.string().min(1), algorithm: z.string().optional() })
    .optional(),
});

const ZWebhookBody = z.object({ webhook: ZWebhookFields });

const ZTestBody = z.object({
  request: z
    .object({
      endpoint: z.string(),
      http_method: z.string().default('POST'),
      request_format: z.string().default('json'),
      payload: z.string().optional(),
      headers: z.array(z.object({ key: z.string(), value: z.string() })).optional(),
    })
    .optional(),
  webhook_id: z.string().optional(),
});

function validEndpoint(endpoint: string | undefined): boolean {
  if (!endpoint) return false;
  try {
    return ['http:', 'https:'].includes(new URL(endpoint).protocol);
  } catch {
    return false;
  }
}

export function webhooksRouter(ctx: SandboxContext): Router {
  const router = Router();
  const { state, dispatcher, urls } = ctx;
  const read = requireScope('webhooks', 'read', 'admin');
  const write = requireScope('webhooks', 'write', 'admin');

  const find = (req: Request, webhooks: Map<string, WebhookRecord>): WebhookRecord => {
    const webhook = webhooks.get(String(req.params.id));
    if (!webhook) throw recordNotFound();
    return webhook;
  };

  router.get('/api/v2/webhooks', read, (req, res) => {
    const { account } = caller(res);
    const all = [...account.webhooks.values()].sort((a, b) => a.id.localeCompare(b.id));
    const page = paginate(req, all, urls.origin + req.originalUrl);
    res.json({ webhooks: page.items.map(serializeWebhook), ...page.envelope });
  });

  router.post('/api/v2/webhooks', write, (req, res) => {
    const { account, user } = caller(res);
    const parsed = ZWebhookBody.safeParse(req.body);
    if (!parsed.success) throw badRequest('Expected a JSON body {"webhook": {...}}');
    const input = parsed.data.webhook;
    const details: Record<string, { description: string; error: string }[]> = {};
    if (!input.name?.trim())
      details.name = [{ description: 'Name: cannot be blank', error: 'BlankValue' }];
    if (!validEndpoint(input.endpoint))
      details.endpoint = [{ description: 'Endpoint: must be a valid URL', error: 'InvalidValue' }];
    if (!input.http_method)
      details.http_method = [{ description: 'Http method: cannot be blank', error: 'BlankValue' }];
    if (!input.request_format)
      details.request_format = [
        { description: 'Request format: cannot be blank', error: 'BlankValue' },
      ];
    if (!input.status)
      details.status = [{ description: 'Status: cannot be blank', error: 'BlankValue' }];
    if (!input.subscriptions?.length)
      details.subscriptions = [
        { description: 'Subscriptions: cannot be blank', error: 'BlankValue' },
      ];
    if (Object.keys(details).length > 0) throw recordInvalid(details);
    const now = state.isoNow();
    const webhook: WebhookRecord = {
      id: ulid(),
      name: input.name ?? '',
      description: input.description ?? '',
      endpoint: input.endpoint ?? '',
      http_method: input.http_method ?? 'POST',
      request_format: input.request_format ?? 'json',
      status: input.status ?? 'active',
      subscriptions: input.subscriptions ?? [],
      authentication: input.authentication ?? null,
      custom_headers: input.custom_headers ?? {},
      secret: input.signing_secret?.secret ?? randomHex(24),
      created_at: now,
      created_by: String(user.id),
      updated_at: now,
    };
    account.webhooks.set(webhook.id, webhook);
    res.status(201).location(urls.api(account.subdomain, `webhooks/${webhook.id}`));
    res.json({ webhook: serializeWebhook(webhook) });
  });

  router.post('/api/v2/webhooks/test', write, async (req, res) => {
    const { account } = caller(res);
    const parsed = ZTestBody.safeParse(req.body);
    if (!parsed.success) throw badRequest('Expected {"request": {...}} or {"webhook_id": "..."}');
    const existing =
      parsed.data.webhook_id === undefined
        ? undefined
        : account.webhooks.get(parsed.data.webhook_id);
    if (parsed.data.webhook_id !== undefined && !existing) throw recordNotFound();
    const request = parsed.data.request;
    const endpoint = request?.endpoint ?? existing?.endpoint ?? '';
    if (!validEndpoint(endpoint))
      throw recordInvalid({
        endpoint: [{ description: 'Endpoint: must be a valid URL', error: 'InvalidValue' }],
      });
    const headers = {
      ...(existing ? { ...existing.custom_headers, ...authHeaders(existing) } : {}),
      ...Object.fromEntries((request?.headers ?? []).map((h) => [h.key, h.value])),
    };
    try {
      const response = await dispatcher.sendOnce({
        accountId: account.id,
        webhookId: existing?.id ?? '',
        endpoint,
        method: request?.http_method ?? existing?.http_method ?? 'POST',
        // A test for a webhook that does not exist yet is signed with Zendesk's public test secret.
        secret: existing?.secret ?? ZENDESK_TEST_SIGNING_SECRET,
        body: request?.payload ?? '{}',
        headers,
      });
      res.json({ response });
    } catch (error) {
      res.json({
        response: {
          status: 0,
          headers: {},
          body: error instanceof Error ? error.message : String(error),
        },
      });
    }
  });

  router.get('/api/v2/webhooks/:id', read, (req, res) => {
    const { account } = caller(res);
    res.json({ webhook: serializeWebhook(find(req, account.webhooks)) });
  });

  const update = (req: Request, webhook: WebhookRecord) => {
    const parsed = ZWebhookBody.safeParse(req.body);
    if (!parsed.success) throw badRequest('Expected a JSON body {"webhook": {...}}');
    const input = parsed.data.webhook;
    if (input.endpoint !== undefined && !validEndpoint(input.endpoint)) {
      throw recordInvalid({
        endpoint: [{ description: 'Endpoint: must be a valid URL', error: 'InvalidValue' }],
      });
    }
    if (input.name !== undefined) webhook.name = input.name;
    if (input.description !== undefined) webhook.description = input.description;
    if (input.endpoint !== undefined) webhook.endpoint = input.endpoint;
    if (input.http_method !== undefined) webhook.http_method = input.http_method;
    if (input.request_format !== undefined) webhook.request_format = input.request_format;
    if (input.status !== undefined) webhook.status = input.status;
    if (input.subscriptions !== undefined) webhook.subscriptions = input.subscriptions;
    if (input.authentication !== undefined) webhook.authentication = input.authentication;
    if (input.custom_headers !== undefined) webhook.custom_headers = input.custom_headers;
    webhook.updated_at = state.isoNow();
  };

  router.put('/api/v2/webhooks/:id', write, (req, res) => {
    const { account } = caller(res);
    update(req, find(req, account.webhooks));
    res.status(204).end();
  });

  router.patch('/api/v2/webhooks/:id', write, (req, res) => {
    const { account } = caller(res);
    update(req, find(req, account.webhooks));
    res.status(204).end();
  });

  router.delete('/api/v2/webhooks/:id', write, (req, res) => {
    const { account } = caller(res);
    const webhook = find(req, account.webhooks);
    account.webhooks.delete(webhook.id);
    res.status(204).end();
  });

  router.get('/api/v2/webhooks/:id/signing_secret', read, (req, res) => {
    const { account } = caller(res);
    res.json({
      signing_secret: { algorithm: 'SHA256', secret: find(req, account.webhooks).secret },
    });
  });

  router.post('/api/v2/webhooks/:id/signing_secret', write, (req, res) => {
    const { account } = caller(res);
    const webhook = find(req, account.webhooks);
    webhook.secret = randomHex(24);
    res.status(201).json({ signing_secret: { algorithm: 'SHA256', secret: webhook.secret } });
  });

  return router;
}
