export const ZENDESK_WEBHOOK_SIGNATURE_HEADER = 'x-zendesk-webhook-signature';
export const ZENDESK_WEBHOOK_TIMESTAMP_HEADER = 'x-zendesk-webhook-signature-timestamp';

/**
 * The static, public secret Zendesk signs test deliveries with before a webhook exists.
 * Anyone can sign with it, so verification refuses it unless `allowTestSecret` is set.
 */
export const ZENDESK_TEST_SIGNING_SECRET = 'dGhpc19zZWNyZXRfaXNfZm9yX3Rlc3Rpbmdfb25seQ==';

export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;
