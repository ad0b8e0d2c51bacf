// The sidebar's JWT, minted by Zendesk's proxy from the installation's shared secret. The signature
// proves the call came through that installation; the claims are still agent-asserted (an agent can
// call client.request with other claims), so the agent check and the ticket check follow.
import { decodeJwt, errors as joseErrors, jwtVerify } from 'jose';
import { z } from 'zod';

const ZNumericId = z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(/^\d{1,19}$/)
    .transform(Number),
]);

export const ZSidebarClaims = z.object({
  subdomain: z
    .string()
    .min(1)
    .max(63)
    .regex(/^[a-z0-9][a-z0-9-]*$/i),
  agent_id: ZNumericId,
  agent_email: z.string().min(3).max(320),
  ticket_id: ZNumericId,
});
export type TSidebarClaims = z.infer<typeof ZSidebarClaims>;

/**
 * The longest lifetime (exp - iat) accepted. The sidebar asks for 300 s; Zendesk's own example uses
 * 3600. A longer-lived token (a leaked or hand-made one) is refused even when its signature holds.
 */
export const MAX_SIDEBAR_TOKEN_LIFETIME_SECONDS = 3600;

export type TokenFailure = { ok: false; code: 'invalid_token' | 'token_expired'; message: string };

/** Read without verifying, ONLY to choose whose secret verifies it. */
export function unverifiedSubdomain(token: string): string | null {
  try {
    const subdomain = ZSidebarClaims.shape.subdomain.safeParse(decodeJwt(token).subdomain);
    return subdomain.success ? subdomain.data.toLowerCase() : null;
  } catch {
    return null;
  }
}

export async function verifySidebarToken(
  token: string,
  sharedSecret: string,
  options: { now: Date; clockToleranceSeconds: number },
): Promise<{ ok: true; claims: TSidebarClaims } | TokenFailure> {
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(sharedSecret), {
      algorithms: ['HS256'],
      requiredClaims: ['exp'],
      clockTolerance: options.clockToleranceSeconds,
      currentDate: options.now,
    }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired)
      return { ok: false, code: 'token_expired', message: 'the token has expired' };
    const reason =
      error instanceof joseErrors.JOSEAlgNotAllowed
        ? 'algorithm not allowed (HS256 only)'
        : error instanceof joseErrors.JWSSignatureVerificationFailed
          ? 'signature does not match the installation'
          : error instanceof joseErrors.JWTClaimValidationFailed
            ? `claim ${error.claim} is invalid`
            : 'malformed token';
    return { ok: false, code: 'invalid_token', message: `invalid token: ${reason}` };
  }
  // jose has checked both are numbers when present. Without iat the lifetime counts from now.
  const nowSeconds = options.now.getTime() / 1000;
  const { exp, iat = nowSeconds } = payload as { exp: number; iat?: number };
  if (iat > nowSeconds + options.clockToleranceSeconds)
    return { ok: false, code: 'invalid_token', message: 'invalid token: issued in the future' };
  if (exp - iat > MAX_SIDEBAR_TOKEN_LIFETIME_SECONDS)
    return {
      ok: false,
      code: 'invalid_token',
      message: `invalid token: lifetime over ${MAX_SIDEBAR_TOKEN_LIFETIME_SECONDS} s`,
    };
  const claims = ZSidebarClaims.safeParse(payload);
  if (!claims.success) {
    const issue = claims.error.issues[0];
    return {
      ok: false,
      code: 'invalid_token',
      message: `invalid token: claim ${issue?.path.join('.') || '?'} is missing or malformed`,
    };
  }
  return { ok: true, claims: claims.data };
}
