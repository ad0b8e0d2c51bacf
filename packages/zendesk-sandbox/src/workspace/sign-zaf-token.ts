import type { KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';

/** Unconfirmed: Zendesk's documentation shows a few minutes; the sandbox uses five. */
export const ZAF_TOKEN_LIFETIME_SECONDS = 300;

/**
 * The ZAF JWT Zendesk sends with the first request of a `signedUrls` location (form field `token`),
 * RS256 with the app's key: `iss` the account's Zendesk domain, `aud` the installation's API URL,
 * `sub` the user's API URL, `exp`, and the `context` it was opened in.
 */
export function signZafToken(input: {
  key: KeyObject;
  subdomain: string;
  installationId: number;
  userId: number;
  now?: Date;
}): Promise<string> {
  const host = `${input.subdomain}.zendesk.com`;
  const iat = Math.floor((input.now ?? new Date()).getTime() / 1000);
  return new SignJWT({
    aud: `https://${host}/api/v2/apps/installations/${input.installationId}.json`,
    sub: `https://${host}/api/v2/users/${input.userId}.json`,
    context: { product: 'support', location: 'ticket_sidebar' },
  })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(host)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ZAF_TOKEN_LIFETIME_SECONDS)
    .sign(input.key);
}
