// The ZAF JWT Zendesk posts (form field `token`) with the first request of a `signedUrls`
// location: RS256, signed with the app's key. Everything the sidebar session knows about who is
// looking comes from here, never from the browser: `iss` is the account's Zendesk domain, `aud`
// the app installation's API URL, `sub` the user (developer.zendesk.com, "Authenticating Zendesk
// in your server-side app"). The claims are checked against each other (aud and sub must name the
// iss account) before the caller looks the account and installation up.
import { decodeJwt, errors as joseErrors, jwtVerify, type CryptoKey, type KeyObject } from 'jose';

/** Clock skew allowed on exp, iat and nbf. */
const ZAF_TOKEN_CLOCK_TOLERANCE_SECONDS = 30;
/** A token claiming a longer life than this (exp - iat) is refused: Zendesk's are minutes. */
export const MAX_ZAF_TOKEN_LIFETIME_SECONDS = 3600;

const ZENDESK_DOMAIN = /^([a-z0-9][a-z0-9-]{0,62})\.zendesk\.com$/;

export interface ZafIdentity {
  subdomain: string;
  installationId: number;
  userId: number;
}

export type ZafTokenFailure =
  | { ok: false; reason: 'malformed' | 'claims' | 'expired' }
  /** The signature did not verify with the key given: the key may have rotated. */
  | { ok: false; reason: 'signature' };

function positiveId(text: string | undefined): number | null {
  if (!text || !/^\d{1,16}$/.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * The claims as Zendesk writes them, or null. `sub` is the user: Zendesk's user URL
 * (`https://<iss>/api/v2/users/<id>.json`) or a bare id; either way it must be of the iss account.
 */
export function identityOfClaims(claims: Record<string, unknown>): ZafIdentity | null {
  const { iss, aud, sub } = claims;
  if (typeof iss !== 'string' || typeof sub !== 'string') return null;
  const domain = ZENDESK_DOMAIN.exec(iss.toLowerCase());
  if (!domain) return null;
  const host = domain[0];
  const audience = Array.isArray(aud) && aud.length === 1 ? aud[0] : aud;
  if (typeof audience !== 'string') return null;
  const installation = /^https:\/\/([^/]+)\/api\/v2\/apps\/installations\/(\d+)\.json$/.exec(
    audience,
  );
  if (!installation || installation[1]!.toLowerCase() !== host) return null;
  const userUrl = /^https:\/\/([^/]+)\/api\/v2\/users\/(\d+)\.json$/.exec(sub);
  if (userUrl && userUrl[1]!.toLowerCase() !== host) return null;
  const userId = positiveId(userUrl ? userUrl[2] : sub);
  const installationId = positiveId(installation[2]);
  if (userId === null || installationId === null) return null;
  return { subdomain: domain[1]!, installationId, userId };
}

/** Read without verifying, ONLY to choose whose installation and key verify it. */
export function unverifiedIdentity(token: string): ZafIdentity | null {
  try {
    return identityOfClaims(decodeJwt(token));
  } catch {
    return null;
  }
}

export async function verifyZafToken(
  token: string,
  publicKey: CryptoKey | KeyObject,
  now: Date,
): Promise<{ ok: true; identity: ZafIdentity } | ZafTokenFailure> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, publicKey, {
      algorithms: ['RS256'],
      requiredClaims: ['exp', 'iss', 'aud', 'sub'],
      clockTolerance: ZAF_TOKEN_CLOCK_TOLERANCE_SECONDS,
      currentDate: now,
    }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) return { ok: false, reason: 'expired' };
    if (error instanceof joseErrors.JWSSignatureVerificationFailed)
      return { ok: false, reason: 'signature' };
    if (error instanceof joseErrors.JWTClaimValidationFailed)
      return { ok: false, reason: 'claims' };
    return { ok: false, reason: 'malformed' };
  }
  const nowSeconds = now.getTime() / 1000;
  const { exp, iat = nowSeconds } = payload as { exp: number; iat?: number };
  if (iat > nowSeconds + ZAF_TOKEN_CLOCK_TOLERANCE_SECONDS) return { ok: false, reason: 'claims' };
  if (exp - iat > MAX_ZAF_TOKEN_LIFETIME_SECONDS) return { ok: false, reason: 'claims' };
  const identity = identityOfClaims(payload);
  return identity ? { ok: true, identity } : { ok: false, reason: 'claims' };
}
