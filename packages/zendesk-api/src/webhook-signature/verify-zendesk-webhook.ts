import { timingSafeEqual } from 'node:crypto';
import { ZendeskError } from '../core/errors';
import { computeZendeskSignature, type WebhookRawBody } from './compute-signature';
import { DEFAULT_WEBHOOK_TOLERANCE_SECONDS, ZENDESK_TEST_SIGNING_SECRET } from './constants';

export interface VerifyZendeskWebhookInput {
  /** The webhook's signing secret; several during a rotation. */
  secret: string | readonly string[];
  /** The body exactly as received, before any JSON parsing. */
  rawBody: WebhookRawBody;
  /** X-Zendesk-Webhook-Signature */
  signature: string | null | undefined;
  /** X-Zendesk-Webhook-Signature-Timestamp (ISO 8601) */
  timestamp: string | null | undefined;
  /** Default: the current time. */
  now?: Date | number | undefined;
  /** Accepted clock difference either way. Default: 300. */
  toleranceSeconds?: number | undefined;
  /** Accept Zendesk's public test secret (never in production). Default: false. */
  allowTestSecret?: boolean | undefined;
}

export type ZendeskWebhookRejection =
  | 'missing_signature'
  | 'missing_timestamp'
  | 'invalid_timestamp'
  | 'signature_mismatch'
  | 'stale_timestamp'
  | 'future_timestamp';

export type ZendeskWebhookVerification =
  { ok: true; timestamp: Date } | { ok: false; reason: ZendeskWebhookRejection };

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * Verifies a Zendesk webhook delivery. The signature is checked before freshness, so a
 * stale_timestamp / future_timestamp result is known to come from the secret's holder.
 * Throws only for a misconfiguration (no usable secret).
 */
export function verifyZendeskWebhook(input: VerifyZendeskWebhookInput): ZendeskWebhookVerification {
  const secrets = usableSecrets(input.secret, input.allowTestSecret ?? false);
  const signature = input.signature?.trim();
  const timestampText = input.timestamp?.trim();
  if (!signature) return { ok: false, reason: 'missing_signature' };
  if (!timestampText) return { ok: false, reason: 'missing_timestamp' };
  const timestampMs = ISO_8601.test(timestampText) ? Date.parse(timestampText) : Number.NaN;
  if (Number.isNaN(timestampMs)) return { ok: false, reason: 'invalid_timestamp' };

  // The raw header text is signed, not a re-formatted date.
  const matches = secrets.some((secret) =>
    constantTimeEqual(computeZendeskSignature(secret, timestampText, input.rawBody), signature),
  );
  if (!matches) return { ok: false, reason: 'signature_mismatch' };

  const now = input.now === undefined ? Date.now() : Number(input.now);
  const toleranceMs = (input.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS) * 1000;
  if (timestampMs < now - toleranceMs) return { ok: false, reason: 'stale_timestamp' };
  if (timestampMs > now + toleranceMs) return { ok: false, reason: 'future_timestamp' };
  return { ok: true, timestamp: new Date(timestampMs) };
}

function usableSecrets(secret: string | readonly string[], allowTestSecret: boolean): string[] {
  const all = (typeof secret === 'string' ? [secret] : [...secret]).filter((value) => value !== '');
  const usable = allowTestSecret
    ? all
    : all.filter((value) => value !== ZENDESK_TEST_SIGNING_SECRET);
  if (usable.length === 0) {
    throw new ZendeskError(
      all.length === 0
        ? 'No Zendesk webhook signing secret configured'
        : "Refusing Zendesk's public test signing secret (set allowTestSecret only in tests)",
    );
  }
  return usable;
}

function constantTimeEqual(expected: string, received: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(received, 'utf8');
  // Lengths of a base64 SHA-256 digest are public, so comparing them first leaks nothing.
  return a.length === b.length && timingSafeEqual(a, b);
}
