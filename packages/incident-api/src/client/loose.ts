import { z } from 'zod';
import { ENVELOPE_DATA_KEY, SIGNED_URL_FIELD } from '../assumptions';

// Readers for endpoints whose envelopes are not shown (assumptions.ts): the payload is taken from
// `data` when there is one, else the body itself is the payload.

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const unwrap = (body: unknown) =>
  isRecord(body) && ENVELOPE_DATA_KEY in body ? body[ENVELOPE_DATA_KEY] : body;

export const looseData = <T extends z.ZodType>(schema: T) => z.preprocess(unwrap, schema);

export const looseList = <T extends z.ZodType>(item: T) => z.preprocess(unwrap, z.array(item));

/** Any JSON answer, or none. */
export const ZAnyResponse = z.unknown();

/** Webhook subscription as listed/updated: every documented field optional. */
export const ZWebhookSubscriptionRecord = z.looseObject({
  id: z.string().optional(),
  url: z.string().optional(),
  events: z.array(z.string()).optional(),
  description: z.string().optional(),
});
export type TWebhookSubscriptionRecord = z.infer<typeof ZWebhookSubscriptionRecord>;

/** Creation answer: carries the signing secret, returned this once. */
export const ZWebhookCreated = ZWebhookSubscriptionRecord.extend({ secret: z.string() });
export type TWebhookCreated = z.infer<typeof ZWebhookCreated>;

/** Rotation answer: the new secret. */
export const ZRotatedSecret = z.looseObject({ secret: z.string() });
export type TRotatedSecret = z.infer<typeof ZRotatedSecret>;

export const ZSignedUrl = z.looseObject({ [SIGNED_URL_FIELD]: z.string() });
export type SignedUrl = { signedUrl: string; [key: string]: unknown };
