// The sidebar JWT's lifetime cap: a correctly signed token is still refused when it claims to live
// longer than an hour, or to have been issued in the future beyond the clock tolerance.
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  MAX_SIDEBAR_TOKEN_LIFETIME_SECONDS,
  verifySidebarToken,
} from '../src/sidebar-api/sidebar-token';

const SECRET = 'a-shared-secret-for-the-lifetime-tests';
const NOW = new Date('2026-11-21T12:00:00Z');
const nowSeconds = NOW.getTime() / 1000;
const claims = { subdomain: 'acme', agent_id: 7, agent_email: 'agent@acme.example', ticket_id: 3 };

function sign(times: { iat?: number; exp: number }) {
  const jwt = new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256' });
  if (times.iat !== undefined) jwt.setIssuedAt(times.iat);
  return jwt.setExpirationTime(times.exp).sign(new TextEncoder().encode(SECRET));
}

const verify = async (token: string) =>
  verifySidebarToken(token, SECRET, { now: NOW, clockToleranceSeconds: 5 });

describe('sidebar JWT lifetime cap', () => {
  it('accepts the sidebar’s 300 s token and one of exactly the cap', async () => {
    expect((await verify(await sign({ iat: nowSeconds, exp: nowSeconds + 300 }))).ok).toBe(true);
    const atCap = await sign({
      iat: nowSeconds,
      exp: nowSeconds + MAX_SIDEBAR_TOKEN_LIFETIME_SECONDS,
    });
    expect((await verify(atCap)).ok).toBe(true);
  });

  it('refuses a token living longer than the cap, even one issued long ago and still valid', async () => {
    const long = await sign({
      iat: nowSeconds,
      exp: nowSeconds + MAX_SIDEBAR_TOKEN_LIFETIME_SECONDS + 1,
    });
    expect(await verify(long)).toMatchObject({
      ok: false,
      message: expect.stringContaining('lifetime'),
    });
    const year = await sign({ iat: nowSeconds - 60, exp: nowSeconds + 365 * 86_400 });
    expect(await verify(year)).toMatchObject({ ok: false, code: 'invalid_token' });
  });

  it('refuses iat in the future beyond the tolerance, accepts it within', async () => {
    const future = await sign({ iat: nowSeconds + 60, exp: nowSeconds + 360 });
    expect(await verify(future)).toMatchObject({
      ok: false,
      message: expect.stringContaining('future'),
    });
    const skewed = await sign({ iat: nowSeconds + 3, exp: nowSeconds + 303 });
    expect((await verify(skewed)).ok).toBe(true);
  });

  it('without iat, counts the lifetime from now', async () => {
    expect((await verify(await sign({ exp: nowSeconds + 120 }))).ok).toBe(true);
    const far = await sign({ exp: nowSeconds + MAX_SIDEBAR_TOKEN_LIFETIME_SECONDS + 600 });
    expect(await verify(far)).toMatchObject({ ok: false, code: 'invalid_token' });
  });
});
