import { SignJWT } from 'jose';
import { z } from 'zod';

export const ZJwtOption = z.looseObject({
  algorithm: z.string().default('HS256'),
  secret_key: z.string().min(1),
  /** Seconds; Zendesk's default is unconfirmed, the sandbox uses one hour. */
  expiry: z.number().positive().optional(),
  claims: z.record(z.string(), z.unknown()).default({}),
});
export type TJwtOption = z.infer<typeof ZJwtOption>;

const HMAC_ALGORITHMS = new Set(['HS256', 'HS384', 'HS512']);
const DEFAULT_EXPIRY_SECONDS = 3600;

class UnsupportedJwtError extends Error {
  override name = 'UnsupportedJwtError';
}

/** Mints the token Zendesk's proxy puts into `{{jwt.token}}`: the app's claims plus `iat` and `exp`. */
export async function mintJwt(option: TJwtOption, now = new Date()): Promise<string> {
  const alg = option.algorithm.toUpperCase();
  if (!HMAC_ALGORITHMS.has(alg))
    throw new UnsupportedJwtError(`jwt algorithm ${option.algorithm} is not supported`);
  const iat = Math.floor(now.getTime() / 1000);
  const claims = { ...option.claims };
  return new SignJWT(claims)
    .setProtectedHeader({ alg, typ: 'JWT' })
    .setIssuedAt(typeof claims.iat === 'number' ? claims.iat : iat)
    .setExpirationTime(
      typeof claims.exp === 'number' ? claims.exp : iat + (option.expiry ?? DEFAULT_EXPIRY_SECONDS),
    )
    .sign(new TextEncoder().encode(option.secret_key));
}
