// A test delivery the connector asked Zendesk to send through its webhook (accounts/zendesk-webhook-test.ts):
// `{"kind":"test","sentAt":"…"}`, signed like any delivery. It proves the Zendesk direction works
// (the admin page's "last from Zendesk") and enqueues nothing.
import { z } from 'zod';
import { parseJsonObject } from './raw-json-body';

const ZTicketingTestDelivery = z.strictObject({
  kind: z.literal('test'),
  sentAt: z.string().max(64),
});

/** Whether the signed bytes are a test delivery (anything else goes the ordinary way). */
export function isTestDelivery(rawBody: Buffer): boolean {
  const json = parseJsonObject(rawBody);
  return json !== null && ZTicketingTestDelivery.safeParse(json).success;
}
