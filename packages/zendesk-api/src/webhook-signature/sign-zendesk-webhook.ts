import { computeZendeskSignature, type WebhookRawBody } from './compute-signature';
import { ZENDESK_WEBHOOK_SIGNATURE_HEADER, ZENDESK_WEBHOOK_TIMESTAMP_HEADER } from './constants';

export interface SignZendeskWebhookInput {
  secret: string;
  rawBody: WebhookRawBody;
  /** ISO 8601 string or a Date. Default: now, to the second, as Zendesk sends it. */
  timestamp?: string | Date | undefined;
}

export interface SignedZendeskWebhook {
  signature: string;
  timestamp: string;
  /** Both headers, ready to send with the raw body. */
  headers: Record<string, string>;
}

/** Signs a delivery the way Zendesk does; for tests and the sandbox. */
export function signZendeskWebhook(input: SignZendeskWebhookInput): SignedZendeskWebhook {
  const timestamp =
    typeof input.timestamp === 'string'
      ? input.timestamp
      : toZendeskTimestamp(input.timestamp ?? new Date());
  const signature = computeZendeskSignature(input.secret, timestamp, input.rawBody);
  return {
    signature,
    timestamp,
    headers: {
      [ZENDESK_WEBHOOK_SIGNATURE_HEADER]: signature,
      [ZENDESK_WEBHOOK_TIMESTAMP_HEADER]: timestamp,
    },
  };
}

function toZendeskTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
