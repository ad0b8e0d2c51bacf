import { createHmac } from 'node:crypto';

export type WebhookRawBody = string | Uint8Array;

/** base64(HMAC-SHA256(key = secret as is, message = timestamp + raw body)), no separator. */
export function computeZendeskSignature(
  secret: string,
  timestamp: string,
  rawBody: WebhookRawBody,
): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(timestamp, 'utf8');
  hmac.update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody);
  return hmac.digest('base64');
}
