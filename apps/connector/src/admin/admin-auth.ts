// Every /admin/api route: a live session from the cookie (401 otherwise); state-changing methods
// also need the session's CSRF token in X-CSRF-Token and, when the browser sends one, an Origin
// equal to the connector's own (403 otherwise). SameSite=Strict already keeps the cookie off
// cross-site requests; the token covers same-site attackers and older browsers.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { TDatabase } from '@incident-desk/db';
import { readSessionCookie, type CookiePolicy } from './admin-cookie';
import { csrfTokenMatches, findAdminSession, type AdminSession } from './admin-sessions';

export interface AdminCaller {
  session: AdminSession;
  /** The raw cookie value (for the CSRF token and sign-out). */
  token: string;
}

export function adminCallerOf(res: Response): AdminCaller {
  return res.locals.adminCaller as AdminCaller;
}

export function sendAdminError(res: Response, status: number, code: string, message: string) {
  res.status(status).json({ error: { code, message } });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function requireAdminSession(options: {
  db: TDatabase;
  cookies: CookiePolicy;
  publicOrigin: string;
  now: () => number;
}): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    const token = readSessionCookie(req, options.cookies);
    const session = token
      ? await findAdminSession(options.db, token, new Date(options.now()))
      : null;
    if (!token || !session) {
      sendAdminError(res, 401, 'not_signed_in', 'sign in with Zendesk first');
      return;
    }
    if (!SAFE_METHODS.has(req.method)) {
      const origin = req.get('origin');
      if (origin !== undefined && origin !== options.publicOrigin) {
        sendAdminError(res, 403, 'csrf', 'cross-origin request refused');
        return;
      }
      if (!csrfTokenMatches(token, req.get('x-csrf-token'))) {
        sendAdminError(res, 403, 'csrf', 'missing or wrong X-CSRF-Token');
        return;
      }
    }
    res.locals.adminCaller = { session, token } satisfies AdminCaller;
    next();
  };
}
