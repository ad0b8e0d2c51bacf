import { z } from 'zod';
import { WEBHOOK_EVENTS } from '../webhook-events';
import { enumParam, isHttpUrl, nonEmptyString, strictRequest } from './fields';

const receiverUrl = z
  .string({ error: 'url must be a string' })
  .refine(isHttpUrl, { error: 'url must be an absolute http(s) URL' });

const eventList = z
  .array(enumParam('events[]', WEBHOOK_EVENTS), { error: 'events must be an array of event names' })
  .min(1, { error: 'events must name at least one event' })
  .refine((events) => new Set(events).size === events.length, {
    error: 'events must not repeat an event',
  });

/** POST /v1/webhooks. `clientId` in the body is an assumption (assumptions.ts). */
export const ZWebhookCreateRequest = strictRequest('a webhook subscription', {
  url: receiverUrl,
  events: eventList,
  description: z.string({ error: 'description is required and must be a string' }),
  clientId: nonEmptyString('clientId').optional(),
});
export type TWebhookCreateRequest = z.infer<typeof ZWebhookCreateRequest>;

/** PATCH /v1/webhooks/{id}: shape not shown; assumed a partial of the creation fields. */
export const ZWebhookUpdateRequest = strictRequest('a webhook update', {
  url: receiverUrl.optional(),
  events: eventList.optional(),
  description: z.string({ error: 'description must be a string' }).optional(),
}).refine((update) => Object.values(update).some((value) => value !== undefined), {
  error: 'a webhook update must change at least one of url, events, description',
});
export type TWebhookUpdateRequest = z.infer<typeof ZWebhookUpdateRequest>;
