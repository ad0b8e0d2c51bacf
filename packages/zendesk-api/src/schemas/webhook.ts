import { z } from 'zod';
import { ZCursorMeta } from './common';

export const ZWebhook = z.looseObject({
  // Webhook ids are ULID strings, unlike the numeric ids elsewhere.
  id: z.string(),
  name: z.string(),
  endpoint: z.string(),
  http_method: z.string(),
  request_format: z.string(),
  status: z.string(),
  subscriptions: z.array(z.string()).optional(),
  description: z.string().nullable().optional(),
  created_at: z.string().optional(),
});
export type TWebhook = z.infer<typeof ZWebhook>;

export const ZWebhookResponse = z.looseObject({ webhook: ZWebhook });

export const ZWebhooksResponse = z.looseObject({
  webhooks: z.array(ZWebhook),
  meta: ZCursorMeta.optional(),
});

export const ZWebhookSigningSecret = z.looseObject({
  algorithm: z.string(),
  secret: z.string().min(1),
});
export type TWebhookSigningSecret = z.infer<typeof ZWebhookSigningSecret>;

export const ZWebhookSigningSecretResponse = z.looseObject({
  signing_secret: ZWebhookSigningSecret,
});

export const ZWebhookCreateInput = z.strictObject({
  name: z.string().min(1),
  endpoint: z.url({ protocol: /^https?$/ }),
  http_method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  request_format: z.enum(['json', 'xml', 'form_encoded']),
  status: z.enum(['active', 'inactive']),
  subscriptions: z.array(z.string().min(1)),
  description: z.string().optional(),
  authentication: z
    .strictObject({
      type: z.enum(['basic_auth', 'bearer_token', 'api_key']),
      data: z.record(z.string(), z.string()),
      add_position: z.literal('header'),
    })
    .optional(),
  custom_headers: z.record(z.string(), z.string()).optional(),
});
export type TWebhookCreateInput = z.infer<typeof ZWebhookCreateInput>;

/** PATCH /api/v2/webhooks/{id}: any subset of the creation fields. */
export const ZWebhookUpdateInput = ZWebhookCreateInput.partial();
export type TWebhookUpdateInput = z.infer<typeof ZWebhookUpdateInput>;

/**
 * POST /api/v2/webhooks/test: Zendesk sends one request to the endpoint, signed with the tested
 * webhook's secret like a real delivery, and answers with what the endpoint answered.
 */
export const ZWebhookTestRequest = z.strictObject({
  endpoint: z.url({ protocol: /^https?$/ }),
  http_method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  request_format: z.enum(['json', 'xml', 'form_encoded']),
  /** The body sent, as a string. */
  payload: z.string(),
});
export type TWebhookTestRequest = z.infer<typeof ZWebhookTestRequest>;

export const ZWebhookTestResponse = z.looseObject({
  response: z.looseObject({
    status: z.number().int(),
    body: z.string().optional(),
  }),
});
export type TWebhookTestResult = z.infer<typeof ZWebhookTestResponse>['response'];
