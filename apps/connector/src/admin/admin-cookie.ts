// The session cookie: HttpOnly, SameSite=Strict, Path=/admin; Secure with the __Host- prefix
// whenever the connector is reached over HTTPS (everywhere but local development).
import type { Request, Response } from 'express';

export interface CookiePolicy {
  secure: boolean;
}

function sessionCookieName(policy: CookiePolicy): string {
  // __Host- requires Secure and Path=/; without HTTPS the plain name is used.
  return policy.secure ? '__Host-incident-desk-admin' : 'incident-desk-admin';
}

export function readSessionCookie(req: Request, policy: CookiePolicy): string | undefined {
  const name = sessionCookieName(policy);
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

function attributes(policy: CookiePolicy, maxAgeSeconds: number): string {
  return [
    `Path=${policy.secure ? '/' : '/admin'}`,
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${maxAgeSeconds}`,
    ...(policy.secure ? ['Secure'] : []),
  ].join('; ');
}

export function setSessionCookie(
  res: Response,
  policy: CookiePolicy,
  token: string,
  maxAgeSeconds: number,
): void {
  res.append(
    'Set-Cookie',
    `${sessionCookieName(policy)}=${token}; ${attributes(policy, maxAgeSeconds)}`,
  );
}

export function clearSessionCookie(res: Response, policy: CookiePolicy): void {
  res.append('Set-Cookie', `${sessionCookieName(policy)}=; ${attributes(policy, 0)}`);
}

// The session marker: the SHA-256 of the session token (what the database keys sessions by, useless
// to act with), SameSite=Lax and Path=/ so that the OAuth callback, a navigation coming back from
// Zendesk that the Strict session cookie does not reach, can tell that this browser is already
// signed in, and for which account.
function sessionMarkerCookieName(policy: CookiePolicy): string {
  return policy.secure ? '__Host-incident-desk-admin-seen' : 'incident-desk-admin-seen';
}

function markerAttributes(policy: CookiePolicy, maxAgeSeconds: number): string {
  return ['Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`]
    .concat(policy.secure ? ['Secure'] : [])
    .join('; ');
}

export function setSessionMarker(
  res: Response,
  policy: CookiePolicy,
  tokenHash: string,
  maxAgeSeconds: number,
): void {
  res.append(
    'Set-Cookie',
    `${sessionMarkerCookieName(policy)}=${tokenHash}; ${markerAttributes(policy, maxAgeSeconds)}`,
  );
}

export function clearSessionMarker(res: Response, policy: CookiePolicy): void {
  res.append('Set-Cookie', `${sessionMarkerCookieName(policy)}=; ${markerAttributes(policy, 0)}`);
}

export function readSessionMarker(req: Request, policy: CookiePolicy): string | undefined {
  const name = sessionMarkerCookieName(policy);
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}
