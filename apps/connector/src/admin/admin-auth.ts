// Every /admin/api route: a live session from the cookie (401 otherwise); state-changing methods
// also need the session's CSRF token in X-CSRF-Token and, when the browser sends one, an Origin
// equal to the connector's own (403 otherwise). SameSite=Strict already keeps the cookie off
// cross-site requests; the token covers same-site attackers and older browsers.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { TDatabase } from '@incident-desk/db';
import { sendError } from '../http';
import { readSessionCookie, type CookiePolicy } from './admin-cookie';
import { ADMIN_ROLE_RECHECK_MS, type AdminRoleChecker } from './admin-role-check';
import {
  csrfTokenMatches,
  deleteAdminSession,
  deleteUserSessions,
  findAdminSession,
  markRoleChecked,
  type AdminSession,
} from './admin-sessions';

export interface AdminCaller {
  session: AdminSession;
  /** The raw cookie value (for the CSRF token and sign-out). */
  token: string;
}

export function adminCallerOf(res: Response): AdminCaller {
  return res.locals.adminCaller as AdminCaller;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function requireAdminSession(options: {
  db: TDatabase;
  cookies: CookiePolicy;
  publicOrigin: string;
  now: () => number;
  /** Asks Zendesk whether the user is still an admin; without it roles are not re-checked. */
  checkRole?: AdminRoleChecker;
  roleRecheckMs?: number;
}): RequestHandler {
  const recheckMs = options.roleRecheckMs ?? ADMIN_ROLE_RECHECK_MS;
  return async (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    const token = readSessionCookie(req, options.cookies);
    const session = token
      ? await findAdminSession(options.db, token, new Date(options.now()))
      : null;
    if (!token || !session) {
      sendError(res, 'not_signed_in', 'sign in with Zendesk first');
      return;
    }
    const now = options.now();
    if (options.checkRole && now - session.roleCheckedAt.getTime() >= recheckMs) {
      const verdict = await options.checkRole(session);
      if (verdict === 'not_admin') {
        await deleteUserSessions(options.db, session.accountId, session.zendeskUserId);
        sendError(res, 'not_admin', 'you are no longer a Zendesk admin of this account');
        return;
      }
      if (verdict === 'sign_in_again') {
        await deleteAdminSession(options.db, token);
        sendError(res, 'role_unconfirmed', 'sign in again so Zendesk confirms your role');
        return;
      }
      if (verdict === 'unknown') {
        sendError(res, 'role_unconfirmed', 'Zendesk could not confirm your role; retry', {
          status: 503,
        });
        return;
      }
      await markRoleChecked(options.db, token, new Date(now));
    }
    if (!SAFE_METHODS.has(req.method)) {
      const origin = req.get('origin');
      if (origin !== undefined && origin !== options.publicOrigin) {
        sendError(res, 'csrf', 'cross-origin request refused');
        return;
      }
      if (!csrfTokenMatches(token, req.get('x-csrf-token'))) {
        sendError(res, 'csrf', 'missing or wrong X-CSRF-Token');
        return;
      }
    }
    res.locals.adminCaller = { session, token } satisfies AdminCaller;
    next();
  };
}
