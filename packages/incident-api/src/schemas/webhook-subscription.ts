import { z } from 'zod';
import { ZWebhookEventName } from './webhook-events';

/**
 * A webhook subscription record. Only url, events, description and (on creation and rotation)
 * secret are documented; `id` is assumed (PATCH/DELETE address /v1/webhooks/{id}). See assumptions.ts.
 */
export const ZWebhookSubscription = z.looseObject({
  id: z.string().optional(),
  url: z.string(),
  events: z.array(ZWebhookEventName),
  description: z.string().optional(),
  /** returned only on creation and on rotation */
  secret: z.string().optional(),
});
export type TWebhookSubscription = z.infer<typeof ZWebhookSubscription>;
