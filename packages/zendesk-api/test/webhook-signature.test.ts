import { describe, expect, it } from 'vitest';
import {
  signZendeskWebhook,
  verifyZendeskWebhook,
  ZENDESK_TEST_SIGNING_SECRET,
  ZENDESK_WEBHOOK_SIGNATURE_HEADER,
  ZENDESK_WEBHOOK_TIMESTAMP_HEADER,
  ZendeskError,
} from '../src';

// Vectors computed independently with `node -e` (createHmac over timestamp + body).
const secret = 'whsec-incident-desk-test';
const rawBody = '{"kind":"report","ticketId":42,"mode":"takedown","requesterEmail":"a@b.test"}';
const timestamp = '2026-11-21T10:00:00Z';
const signature = '7ENn8XOPDno7ikrZhuHIpL3h2l88Q3IGnbUaZuJbC3k=';
const binaryBody = Buffer.from([0xff, 0x00, 0x7b, 0xe2, 0x82, 0xac]);
const binarySignature = '9I0YgFbZcYxyjx6zAv0dYHZVqAiZ7AAR36ewLwspu+Q=';
const now = Date.parse(timestamp) + 10_000;

describe('verifyZendeskWebhook', () => {
  it('accepts the known vector', () => {
    const result = verifyZendeskWebhook({ secret, rawBody, signature, timestamp, now });
    expect(result).toEqual({ ok: true, timestamp: new Date(timestamp) });
  });

  it('hashes raw bytes, not a re-encoded string', () => {
    expect(
      verifyZendeskWebhook({
        secret,
        rawBody: binaryBody,
        signature: binarySignature,
        timestamp,
        now,
      }).ok,
    ).toBe(true);
    expect(
      verifyZendeskWebhook({
        secret,
        rawBody: binaryBody.toString('utf8'),
        signature: binarySignature,
        timestamp,
        now,
      }).ok,
    ).toBe(false);
  });

  it('accepts the same bytes given as a Buffer', () => {
    expect(
      verifyZendeskWebhook({ secret, rawBody: Buffer.from(rawBody), signature, timestamp, now }).ok,
    ).toBe(true);
  });

  it('rejects a wrong secret', () => {
    expect(
      verifyZendeskWebhook({ secret: 'other-secret', rawBody, signature, timestamp, now }),
    ).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('accepts any of several secrets during a rotation', () => {
    expect(
      verifyZendeskWebhook({ secret: ['new-secret', secret], rawBody, signature, timestamp, now })
        .ok,
    ).toBe(true);
  });

  it('rejects a tampered body', () => {
    const tampered = rawBody.replace('42', '43');
    expect(verifyZendeskWebhook({ secret, rawBody: tampered, signature, timestamp, now })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('rejects a signature replayed with another timestamp', () => {
    const result = verifyZendeskWebhook({
      secret,
      rawBody,
      signature,
      timestamp: '2026-11-21T10:00:01Z',
      now,
    });
    expect(result).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('rejects a truncated or garbage signature', () => {
    expect(
      verifyZendeskWebhook({ secret, rawBody, signature: signature.slice(0, 20), timestamp, now })
        .ok,
    ).toBe(false);
    expect(verifyZendeskWebhook({ secret, rawBody, signature: '!!!', timestamp, now }).ok).toBe(
      false,
    );
  });

  it('rejects a stale timestamp beyond the default 300 s', () => {
    const stale = Date.parse(timestamp) + 301_000;
    expect(verifyZendeskWebhook({ secret, rawBody, signature, timestamp, now: stale })).toEqual({
      ok: false,
      reason: 'stale_timestamp',
    });
    expect(
      verifyZendeskWebhook({
        secret,
        rawBody,
        signature,
        timestamp,
        now: Date.parse(timestamp) + 300_000,
      }).ok,
    ).toBe(true);
  });

  it('rejects a timestamp too far in the future', () => {
    expect(
      verifyZendeskWebhook({
        secret,
        rawBody,
        signature,
        timestamp,
        now: Date.parse(timestamp) - 301_000,
      }),
    ).toEqual({
      ok: false,
      reason: 'future_timestamp',
    });
  });

  it('honours a custom tolerance and a Date for now', () => {
    const later = new Date(Date.parse(timestamp) + 61_000);
    expect(
      verifyZendeskWebhook({
        secret,
        rawBody,
        signature,
        timestamp,
        now: later,
        toleranceSeconds: 60,
      }).ok,
    ).toBe(false);
  });

  it('reports missing headers', () => {
    expect(verifyZendeskWebhook({ secret, rawBody, signature: undefined, timestamp, now })).toEqual(
      {
        ok: false,
        reason: 'missing_signature',
      },
    );
    expect(verifyZendeskWebhook({ secret, rawBody, signature: '', timestamp, now }).ok).toBe(false);
    expect(verifyZendeskWebhook({ secret, rawBody, signature, timestamp: null, now })).toEqual({
      ok: false,
      reason: 'missing_timestamp',
    });
  });

  it('rejects a timestamp that is not ISO 8601', () => {
    const unix = String(Date.parse(timestamp) / 1000);
    const signed = signZendeskWebhook({ secret, rawBody, timestamp: unix });
    expect(
      verifyZendeskWebhook({ secret, rawBody, signature: signed.signature, timestamp: unix, now }),
    ).toEqual({
      ok: false,
      reason: 'invalid_timestamp',
    });
  });

  it("refuses Zendesk's public test secret unless allowed", () => {
    const signed = signZendeskWebhook({ secret: ZENDESK_TEST_SIGNING_SECRET, rawBody, timestamp });
    const input = {
      secret: ZENDESK_TEST_SIGNING_SECRET,
      rawBody,
      signature: signed.signature,
      timestamp,
      now,
    };
    expect(() => verifyZendeskWebhook(input)).toThrow(ZendeskError);
    expect(verifyZendeskWebhook({ ...input, allowTestSecret: true }).ok).toBe(true);
    // With a real secret beside it, the test secret is ignored rather than accepted.
    expect(
      verifyZendeskWebhook({ ...input, secret: [secret, ZENDESK_TEST_SIGNING_SECRET] }).ok,
    ).toBe(false);
  });

  it('throws when no secret is configured', () => {
    expect(() => verifyZendeskWebhook({ secret: [], rawBody, signature, timestamp, now })).toThrow(
      /No Zendesk webhook signing secret/,
    );
  });
});

describe('signZendeskWebhook', () => {
  it('reproduces the known vector and returns both headers', () => {
    const signed = signZendeskWebhook({ secret, rawBody, timestamp });
    expect(signed.signature).toBe(signature);
    expect(signed.headers).toEqual({
      [ZENDESK_WEBHOOK_SIGNATURE_HEADER]: signature,
      [ZENDESK_WEBHOOK_TIMESTAMP_HEADER]: timestamp,
    });
  });

  it('stamps the current time to the second by default, which then verifies', () => {
    const signed = signZendeskWebhook({ secret, rawBody });
    expect(signed.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(
      verifyZendeskWebhook({
        secret,
        rawBody,
        signature: signed.signature,
        timestamp: signed.timestamp,
      }).ok,
    ).toBe(true);
  });
});
