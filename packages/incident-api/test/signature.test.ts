import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from '../src';

// Independent vector, computed with:
//   printf '%s' '1767225600.<body>' | openssl dgst -sha256 -hmac 'whsec_test_secret'
const SECRET = 'whsec_test_secret';
const TIMESTAMP = 1767225600; // 2026-01-01T00:00:00Z
const BODY =
  '{"id":"evt_1","event":"webhook.test","timestamp":"2026-01-01T00:00:00.000Z","clientId":"client_1","data":{}}';
const SIGNATURE = 'sha256=994fc8219d8cbe554c0b7000abbb0244c32633d79ce3c79cc0bfed3e769fcb5f';

const headers = { 'X-Service-Timestamp': String(TIMESTAMP), 'X-Service-Signature': SIGNATURE };

describe('signWebhook', () => {
  it('produces the documented headers for a known vector', () => {
    expect(signWebhook({ secret: SECRET, body: BODY, timestamp: TIMESTAMP })).toEqual(headers);
  });

  it('signs raw bytes identically to the same text', () => {
    expect(signWebhook({ secret: SECRET, body: Buffer.from(BODY), timestamp: TIMESTAMP })).toEqual(
      headers,
    );
  });

  it('refuses a millisecond timestamp instead of signing a wrong time', () => {
    expect(() => signWebhook({ secret: SECRET, body: BODY, timestamp: TIMESTAMP * 1000 })).toThrow(
      /milliseconds/,
    );
  });
});

describe('verifyWebhook', () => {
  const base = { secrets: [SECRET], rawBody: Buffer.from(BODY), headers, now: TIMESTAMP + 10 };

  it('accepts a valid delivery', () => {
    expect(verifyWebhook(base)).toEqual({ ok: true, timestamp: TIMESTAMP, secretIndex: 0 });
  });

  it('reads headers case-insensitively, from Node-style objects or a Headers instance', () => {
    const lower = { 'x-service-timestamp': String(TIMESTAMP), 'x-service-signature': SIGNATURE };
    expect(verifyWebhook({ ...base, headers: lower }).ok).toBe(true);
    expect(verifyWebhook({ ...base, headers: new Headers(lower) }).ok).toBe(true);
  });

  it('rejects a wrong secret', () => {
    expect(verifyWebhook({ ...base, secrets: ['whsec_other'] })).toMatchObject({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('rejects a tampered body, even by one byte', () => {
    const tampered = BODY.replace('client_1', 'client_2');
    expect(verifyWebhook({ ...base, rawBody: tampered })).toMatchObject({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('rejects a re-serialised body (verification is over the raw bytes)', () => {
    const reserialised = JSON.stringify(JSON.parse(BODY), null, 2);
    expect(verifyWebhook({ ...base, rawBody: reserialised }).ok).toBe(false);
  });

  it('rejects a stale timestamp beyond 300 s and accepts one at the edge', () => {
    expect(verifyWebhook({ ...base, now: TIMESTAMP + 301 })).toMatchObject({
      ok: false,
      reason: 'stale_timestamp',
    });
    expect(verifyWebhook({ ...base, now: TIMESTAMP + 300 }).ok).toBe(true);
  });

  it('rejects a future timestamp beyond 300 s and accepts one at the edge', () => {
    expect(verifyWebhook({ ...base, now: TIMESTAMP - 301 })).toMatchObject({
      ok: false,
      reason: 'future_timestamp',
    });
    expect(verifyWebhook({ ...base, now: TIMESTAMP - 300 }).ok).toBe(true);
  });

  it('honours a custom tolerance and a Date for now', () => {
    expect(verifyWebhook({ ...base, now: TIMESTAMP + 61, toleranceSeconds: 60 }).ok).toBe(false);
    expect(verifyWebhook({ ...base, now: new Date((TIMESTAMP + 5) * 1000) }).ok).toBe(true);
  });

  it('accepts a rotated secret: the second of several accepted secrets', () => {
    const result = verifyWebhook({ ...base, secrets: ['whsec_new', SECRET, 'whsec_other_client'] });
    expect(result).toEqual({ ok: true, timestamp: TIMESTAMP, secretIndex: 1 });
  });

  it('names the missing headers', () => {
    expect(verifyWebhook({ ...base, headers: {} })).toMatchObject({
      ok: false,
      reason: 'missing_headers',
      missing: ['X-Service-Timestamp', 'X-Service-Signature'],
    });
    expect(
      verifyWebhook({ ...base, headers: { 'X-Service-Timestamp': String(TIMESTAMP) } }),
    ).toMatchObject({
      reason: 'missing_headers',
      missing: ['X-Service-Signature'],
    });
  });

  it('rejects a non-numeric timestamp and a signature without the sha256= scheme', () => {
    expect(
      verifyWebhook({ ...base, headers: { ...headers, 'X-Service-Timestamp': '2026-01-01' } }),
    ).toMatchObject({
      reason: 'invalid_timestamp',
    });
    const bare = { ...headers, 'X-Service-Signature': SIGNATURE.slice('sha256='.length) };
    expect(verifyWebhook({ ...base, headers: bare })).toMatchObject({ reason: 'bad_signature' });
  });

  it('works with custom header names on both sides', () => {
    const headerNames = { signature: 'X-Sig', timestamp: 'X-Ts' };
    const signed = signWebhook({ secret: SECRET, body: BODY, timestamp: TIMESTAMP, headerNames });
    expect(Object.keys(signed).sort()).toEqual(['X-Sig', 'X-Ts']);
    expect(verifyWebhook({ ...base, headers: signed, headerNames }).ok).toBe(true);
    expect(verifyWebhook({ ...base, headers: signed }).ok).toBe(false);
  });

  it('round-trips signWebhook and verifyWebhook at the current time', () => {
    const signed = signWebhook({ secret: SECRET, body: BODY });
    expect(verifyWebhook({ secrets: SECRET, rawBody: BODY, headers: signed }).ok).toBe(true);
  });
});
