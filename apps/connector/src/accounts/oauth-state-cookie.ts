// Binds an OAuth state to the browser that started the flow: /install and /admin/sign-in set a
// short-lived cookie holding a hash of the state, and the callback accepts the state only from a
// browser that presents it. A callback URL captured by someone else is useless in another browser.
//
// The cookie is HttpOnly, SameSite=Lax (the callback is a top-level navigation coming back from
// Zendesk, which Lax lets through and Strict would not), Path=/, and lives as long as the state.
// Over HTTPS it is `__Host-` prefixed and Secure. The prefix requires Secure, and browsers store a
// Secure cookie only from a secure origin (some treat http://localhost as one, not all treat
// 127.0.0.1 so), so over plain HTTP in local development the unprefixed name is used.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { INSTALL_STATE_TTL_MS } from './install-states';

export interface StateCookiePolicy {
  secure: boolean;
}

function stateCookieName(policy: StateCookiePolicy): string {
  return policy.secure ? '__Host-incident-desk-oauth' : 'incident-desk-oauth';
}

/** What the cookie holds: not the state itself, so the cookie alone completes nothing. */
function stateBinding(state: string): string {
  return createHash('sha256').update(`oauth-state:${state}`).digest('base64url');
}

function attributes(policy: StateCookiePolicy, maxAgeSeconds: number): string {
  return ['Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`]
    .concat(policy.secure ? ['Secure'] : [])
    .join('; ');
}

export function setStateCookie(res: Response, policy: StateCookiePolicy, state: string): void {
  res.append(
    'Set-Cookie',
    `${stateCookieName(policy)}=${stateBinding(state)}; ${attributes(policy, INSTALL_STATE_TTL_MS / 1000)}`,
  );
}

function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

/** True when this browser holds the binding of this state. */
export function stateCookieMatches(
  req: Request,
  policy: StateCookiePolicy,
  state: string | undefined,
): boolean {
  const presented = readCookie(req, stateCookieName(policy));
  if (!state || !presented) return false;
  const expected = Buffer.from(stateBinding(state));
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
