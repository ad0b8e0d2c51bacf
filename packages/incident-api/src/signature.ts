import { createHmac, timingSafeEqual } from 'node:crypto';

// Webhook signature scheme shared by the incident sandbox (signs) and the connector (verifies):
//   X-Service-Timestamp: <unix seconds>
//   X-Service-Signature: sha256=<hex HMAC-SHA256(secret, timestamp + "." + raw body)>
// accepted within 300 seconds either way. The contract leaves the construction open; this is the one the product fixes.

export const DEFAULT_SIGNATURE_HEADER = 'X-Service-Signature';
export const DEFAULT_TIMESTAMP_HEADER = 'X-Service-Timestamp';
export const DEFAULT_TOLERANCE_SECONDS = 300;
const SCHEME = 'sha256';

export interface WebhookHeaderNames {
  signature?: string;
  timestamp?: string;
}

/** Unix seconds, or a Date. A number that looks like milliseconds is refused, not guessed. */
export type UnixTime = number | Date;

function toUnixSeconds(value: UnixTime, name: string): number {
  if (value instanceof Date) return Math.floor(value.getTime() / 1000);
  if (!Number.isFinite(value) || value < 0) throw new TypeError(`${name} must be unix seconds`);
  if (value > 1e11)
    throw new TypeError(`${name} looks like milliseconds; pass unix seconds or a Date`);
  return Math.floor(value);
}

function toBytes(body: string | Uint8Array): Uint8Array {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}

function computeSignature(secret: string, timestamp: string, body: Uint8Array): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(body).digest();
}

export interface SignWebhookOptions {
  secret: string;
  /** the exact bytes that will be sent */
  body: string | Uint8Array;
  /** default: now */
  timestamp?: UnixTime;
  headerNames?: WebhookHeaderNames;
}

/** Headers to add to a webhook delivery. */
export function signWebhook(options: SignWebhookOptions): Record<string, string> {
  const timestamp = String(toUnixSeconds(options.timestamp ?? new Date(), 'timestamp'));
  const signature = computeSignature(options.secret, timestamp, toBytes(options.body));
  return {
    [options.headerNames?.timestamp ?? DEFAULT_TIMESTAMP_HEADER]: timestamp,
    [options.headerNames?.signature ?? DEFAULT_SIGNATURE_HEADER]:
      `${SCHEME}=${signature.toString('hex')}`,
  };
}

export type HeaderSource = Headers | Record<string, string | readonly string[] | undefined>;

export interface VerifyWebhookOptions {
  /** every secret currently valid (rotation, several subscriptions); order does not matter */
  secrets: string | readonly string[];
  /** the raw request body bytes, before any JSON parsing */
  rawBody: string | Uint8Array;
  headers: HeaderSource;
  /** default: now */
  now?: UnixTime;
  /** default 300, applied both to stale and to future timestamps */
  toleranceSeconds?: number;
  headerNames?: WebhookHeaderNames;
}

export type WebhookVerificationFailure =
  | 'missing_headers'
  | 'invalid_timestamp'
  | 'stale_timestamp'
  | 'future_timestamp'
  | 'bad_signature';

export type WebhookVerificationResult =
  | { ok: true; timestamp: number; /** index of the secret that matched */ secretIndex: number }
  | {
      ok: false;
      reason: WebhookVerificationFailure;
      message: string;
      /** header names, for missing_headers */
      missing?: string[];
    };

function readHeader(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return typeof value === 'string' ? value : value.join(',');
  }
  return undefined;
}

/** The hex digests offered by the header; several `sha256=` entries may be comma-separated. */
function offeredSignatures(header: string): Buffer[] {
  return header
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${SCHEME}=`))
    .map((part) => part.slice(SCHEME.length + 1))
    .filter((hex) => /^[0-9a-f]{64}$/i.test(hex))
    .map((hex) => Buffer.from(hex, 'hex'));
}

/** Checks headers, timestamp window and signature, in that order; never throws on bad input. */
export function verifyWebhook(options: VerifyWebhookOptions): WebhookVerificationResult {
  const signatureName = options.headerNames?.signature ?? DEFAULT_SIGNATURE_HEADER;
  const timestampName = options.headerNames?.timestamp ?? DEFAULT_TIMESTAMP_HEADER;
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;

  const signatureHeader = readHeader(options.headers, signatureName)?.trim();
  const timestampHeader = readHeader(options.headers, timestampName)?.trim();
  const missing = [
    ...(timestampHeader ? [] : [timestampName]),
    ...(signatureHeader ? [] : [signatureName]),
  ];
  if (!signatureHeader || !timestampHeader) {
    return {
      ok: false,
      reason: 'missing_headers',
      message: `missing header(s): ${missing.join(', ')}`,
      missing,
    };
  }

  if (!/^\d{1,12}$/.test(timestampHeader)) {
    return {
      ok: false,
      reason: 'invalid_timestamp',
      message: `${timestampName} must be unix seconds`,
    };
  }
  const timestamp = Number(timestampHeader);
  const now = toUnixSeconds(options.now ?? new Date(), 'now');
  if (timestamp < now - tolerance) {
    return {
      ok: false,
      reason: 'stale_timestamp',
      message: `${timestampName} is more than ${tolerance}s in the past`,
    };
  }
  if (timestamp > now + tolerance) {
    return {
      ok: false,
      reason: 'future_timestamp',
      message: `${timestampName} is more than ${tolerance}s in the future`,
    };
  }

  const offered = offeredSignatures(signatureHeader);
  const secrets = typeof options.secrets === 'string' ? [options.secrets] : options.secrets;
  const body = toBytes(options.rawBody);
  // Every secret is tried against every offered digest so timing does not reveal which matched.
  let matched = -1;
  secrets.forEach((secret, index) => {
    const expected = computeSignature(secret, timestampHeader, body);
    for (const candidate of offered) {
      if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) {
        if (matched === -1) matched = index;
      }
    }
  });
  if (matched === -1) {
    return {
      ok: false,
      reason: 'bad_signature',
      message: `${signatureName} does not match the body for any accepted secret`,
    };
  }
  return { ok: true, timestamp, secretIndex: matched };
}
