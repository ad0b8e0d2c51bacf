// ZAF JWTs as an attacker would make them for the sidebar's signed page (POST
// /sidebar/app/assets/iframe.html, form field `token`): Zendesk signs RS256 with the app's key;
// everything here except `valid` must be refused. The sidebar API itself takes only the session
// the page hands out, so a JWT of any kind sent to it is refused as well.
import { createHmac, createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';

export type TokenForgery =
  | 'valid'
  | 'bad_signature'
  | 'expired'
  | 'foreign_installation'
  | 'foreign_subdomain'
  | 'alg_none'
  | 'alg_hs256_public_key'
  | 'no_exp'
  | 'bad_claims'
  | 'foreign_audience'
  | 'foreign_agent';

export interface TokenTarget {
  subdomain: string;
  installationId: number;
  foreignSubdomain: string;
  foreignInstallationId: number;
  agentId: number;
  foreignAgentId: number;
  /** The app's signing key, as Zendesk holds it (the sandbox's). */
  appKey: KeyObject;
  /** Its public half, as the connector fetches it. */
  publicKeyPem: string;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
let otherKey: KeyObject | undefined;

function jwt(header: Record<string, unknown>, payload: unknown, key: KeyObject | string | null) {
  const signingInput = `${b64(header)}.${b64(payload)}`;
  if (key === null) return `${signingInput}.`;
  if (typeof key === 'string')
    return `${signingInput}.${createHmac('sha256', key).update(signingInput).digest('base64url')}`;
  return `${signingInput}.${createSign('RSA-SHA256').update(signingInput).sign(key).toString('base64url')}`;
}

const audience = (subdomain: string, installationId: number) =>
  `https://${subdomain}.zendesk.com/api/v2/apps/installations/${installationId}.json`;
const user = (subdomain: string, id: number) =>
  `https://${subdomain}.zendesk.com/api/v2/users/${id}.json`;

/**
 * @param ageSeconds how much longer ago than the 30 s tolerance an expired token expired
 * @param junk a random JSON value used as a wrongly typed claim
 */
export function forgeToken(
  how: TokenForgery,
  target: TokenTarget,
  nowMs: number,
  ageSeconds: number,
  junk: unknown,
): string {
  const now = Math.floor(nowMs / 1000);
  const claims = {
    iss: `${target.subdomain}.zendesk.com`,
    aud: audience(target.subdomain, target.installationId),
    sub: user(target.subdomain, target.agentId),
    iat: now,
    exp: now + 120,
  };
  const rs256 = { alg: 'RS256', typ: 'JWT' };
  switch (how) {
    case 'valid':
      return jwt(rs256, claims, target.appKey);
    case 'bad_signature':
      otherKey ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      return jwt(rs256, claims, otherKey);
    case 'expired':
      return jwt(
        rs256,
        // expired beyond the connector's 30 s clock tolerance
        { ...claims, iat: now - ageSeconds - 150, exp: now - ageSeconds - 30 },
        target.appKey,
      );
    case 'foreign_installation':
      // Another account's installation named by this account.
      return jwt(
        rs256,
        { ...claims, aud: audience(target.subdomain, target.foreignInstallationId) },
        target.appKey,
      );
    case 'foreign_subdomain':
      // This installation claiming another account.
      return jwt(
        rs256,
        { ...claims, iss: `${target.foreignSubdomain}.zendesk.com` },
        target.appKey,
      );
    case 'foreign_audience':
      return jwt(
        rs256,
        { ...claims, aud: audience(target.foreignSubdomain, target.foreignInstallationId) },
        target.appKey,
      );
    case 'alg_none':
      return jwt({ alg: 'none', typ: 'JWT' }, claims, null);
    case 'alg_hs256_public_key':
      // The algorithm confusion attack: HMAC keyed with the public key everyone can read.
      return jwt({ alg: 'HS256', typ: 'JWT' }, claims, target.publicKeyPem);
    case 'no_exp': {
      const { exp: _exp, ...rest } = claims;
      return jwt(rs256, rest, target.appKey);
    }
    case 'bad_claims':
      return jwt(rs256, { ...claims, sub: junk ?? 'x', aud: { junk } }, target.appKey);
    case 'foreign_agent':
      // A user of another account, in this account's claims.
      return jwt(
        rs256,
        { ...claims, sub: user(target.subdomain, target.foreignAgentId) },
        target.appKey,
      );
  }
}
