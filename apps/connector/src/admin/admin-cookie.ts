// The session cookie: HttpOnly, SameSite=Strict, Path=/admin; Secure with the __Host- prefix
// whenever the connector is reached over HTTPS (everywhere but local development).
import type { Request, Response } from 'express';

export interface CookiePolicy {
  secure: boolean;
}

export function sessionCookieName(policy: CookiePolicy): string {
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
