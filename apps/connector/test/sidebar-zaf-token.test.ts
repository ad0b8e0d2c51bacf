// The ZAF JWT's checks beyond the signature: RS256 only, a lifetime cap (a correctly signed token
// claiming to live longer than an hour, or issued in the future beyond the tolerance, is refused),
// and claims that must name one account (iss, aud and sub of the same Zendesk domain).
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  identityOfClaims,
  MAX_ZAF_TOKEN_LIFETIME_SECONDS,
  verifyZafToken,
} from '../src/sidebar-api/zaf-token';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const NOW = new Date('2026-11-21T12:00:00Z');
const nowSeconds = NOW.getTime() / 1000;
const claims = {
  iss: 'acme.zendesk.com',
  aud: 'https://acme.zendesk.com/api/v2/apps/installations/55.json',
  sub: 'https://acme.zendesk.com/api/v2/users/7.json',
};

function sign(times: { iat?: number; exp: number }, extra: Record<string, unknown> = {}) {
  const jwt = new SignJWT({ ...claims, ...extra }).setProtectedHeader({ alg: 'RS256' });
  if (times.iat !== undefined) jwt.setIssuedAt(times.iat);
  return jwt.setExpirationTime(times.exp).sign(privateKey);
}

const verify = (token: string) => verifyZafToken(token, publicKey, NOW);

describe('ZAF JWT verification', () => {
  it('derives account, installation and user from the claims alone', async () => {
    expect(await verify(await sign({ iat: nowSeconds, exp: nowSeconds + 300 }))).toEqual({
      ok: true,
      identity: { subdomain: 'acme', installationId: 55, userId: 7 },
    });
  });

  it('accepts a lifetime of exactly the cap, refuses longer and a future iat', async () => {
    const atCap = await sign({ iat: nowSeconds, exp: nowSeconds + MAX_ZAF_TOKEN_LIFETIME_SECONDS });
    expect((await verify(atCap)).ok).toBe(true);
    const longer = await sign({
      iat: nowSeconds,
      exp: nowSeconds + MAX_ZAF_TOKEN_LIFETIME_SECONDS + 1,
    });
    expect(await verify(longer)).toEqual({ ok: false, reason: 'claims' });
    const future = await sign({ iat: nowSeconds + 120, exp: nowSeconds + 400 });
    expect((await verify(future)).ok).toBe(false);
  });

  it('refuses an expired token and one without exp', async () => {
    expect(await verify(await sign({ iat: nowSeconds - 600, exp: nowSeconds - 60 }))).toEqual({
      ok: false,
      reason: 'expired',
    });
    const noExp = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).sign(privateKey);
    expect((await verify(noExp)).ok).toBe(false);
  });

  it('refuses other algorithms and other keys', async () => {
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(nowSeconds + 60)
      .sign(new TextEncoder().encode('a-guessed-shared-secret'));
    expect((await verify(hs)).ok).toBe(false);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256' })
      .setExpirationTime(nowSeconds + 60)
      .sign(other);
    expect(await verify(forged)).toEqual({ ok: false, reason: 'signature' });
  });

  it('needs iss, aud and sub of one Zendesk account', () => {
    expect(identityOfClaims({ ...claims, sub: '7' })).toEqual({
      subdomain: 'acme',
      installationId: 55,
      userId: 7,
    });
    for (const bad of [
      { iss: 'acme.zendesk.com.evil.example' },
      { iss: 'evil.example' },
      { aud: 'https://other.zendesk.com/api/v2/apps/installations/55.json' },
      { aud: 'http://acme.zendesk.com/api/v2/apps/installations/55.json' },
      { aud: 'https://acme.zendesk.com/api/v2/apps/installations/0.json' },
      { sub: 'https://other.zendesk.com/api/v2/users/7.json' },
      { sub: 'admin@acme.example' },
      { sub: undefined },
    ])
      expect(identityOfClaims({ ...claims, ...bad })).toBeNull();
  });
});
