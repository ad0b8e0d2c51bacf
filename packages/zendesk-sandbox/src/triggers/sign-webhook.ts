import { createHmac } from 'node:crypto';

/** Zendesk's base64(HMAC-SHA256(secret, timestamp + body)). */
export function signWebhook(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret)
    .update(timestamp + body)
    .digest('base64');
}

/** The public secret Zendesk signs test deliveries with when the webhook does not exist yet. */
export const ZENDESK_TEST_SIGNING_SECRET = 'dGhpc19zZWNyZXRfaXNfZm9yX3Rlc3Rpbmdfb25seQ==';
