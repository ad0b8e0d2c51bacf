// Starting an admin page session once Zendesk proved who the admin is: after "Sign in with
// Zendesk", and after an install (the installing admin lands on the admin page already signed in).
// One session, one cookie: the same short-lived, HttpOnly, Strict session and its Lax marker,
// bound to the account the grant proved. A browser already signed in for another account is asked
// first: the new session only replaces it once the admin confirms.
import type { Request, Response } from 'express';
import type { TDatabase } from '@incident-desk/db';
import { escapeHtml, htmlPage } from '../accounts';
import {
  readSessionMarker,
  setSessionCookie,
  setSessionMarker,
  type CookiePolicy,
} from './admin-cookie';
import {
  ADMIN_SESSION_TTL_MS,
  createAdminSession,
  findAdminSessionByHash,
  sessionTokenHash,
} from './admin-sessions';

export interface AdminSessionStartOptions {
  db: TDatabase;
  cookies: CookiePolicy;
  now: () => number;
}

/** Who the grant proved: a Zendesk admin of the installed account `accountId`. */
export interface ProvenAdmin {
  accountId: string;
  subdomain: string;
  zendeskUserId: number;
  userName: string;
  /** The admin's Zendesk locale (users/me), when Zendesk named one. */
  locale: string | null;
}

export function setSessionCookies(res: Response, cookies: CookiePolicy, token: string): void {
  setSessionCookie(res, cookies, token, ADMIN_SESSION_TTL_MS / 1000);
  setSessionMarker(res, cookies, sessionTokenHash(token), ADMIN_SESSION_TTL_MS / 1000);
}

/** Asks before a session for one account replaces this browser's session for another. */
function switchAccountPage(
  current: string,
  next: string,
  finished: string,
  pendingToken: string,
): string {
  return htmlPage(
    'Switch the admin page to another account?',
    `<p id="switch-question">${escapeHtml(
      `This browser is signed in to the incident-desk admin page of ${current}. The ${finished} that just finished is for ${next}. Continue only if you started it yourself.`,
    )}</p>
    <form method="post" action="/admin/sign-in/confirm">
      <input type="hidden" name="token" value="${escapeHtml(pendingToken)}">
      <button type="submit" id="switch">Switch to ${escapeHtml(next)}</button>
    </form>
    <p><a id="stay" href="/admin/">Stay signed in to ${escapeHtml(current)}</a></p>`,
  );
}

/**
 * Answers the OAuth callback: the session and a redirect to the admin page, or the question when
 * this browser is signed in for another account. `finished` names the flow ("sign-in").
 */
export async function startAdminSession(
  options: AdminSessionStartOptions,
  admin: ProvenAdmin,
  finished: string,
  req: Request,
  res: Response,
): Promise<void> {
  const { db, cookies, now } = options;
  const user = {
    accountId: admin.accountId,
    zendeskUserId: admin.zendeskUserId,
    userName: admin.userName,
    locale: admin.locale,
  };
  // The Strict session cookie does not come with this navigation from Zendesk; its Lax marker does.
  const marker = readSessionMarker(req, cookies);
  const previous = marker ? await findAdminSessionByHash(db, marker, new Date(now())) : null;
  res.setHeader('Cache-Control', 'no-store');
  if (previous && previous.accountId !== admin.accountId) {
    const pending = await createAdminSession(db, user, new Date(now()), true);
    res
      .type('html')
      .send(switchAccountPage(previous.subdomain, admin.subdomain, finished, pending));
    return;
  }
  const token = await createAdminSession(db, user, new Date(now()));
  setSessionCookies(res, cookies, token);
  res.redirect(303, '/admin/');
}

/**
 * The install's last step (accountsRouter's onInstalledByAdmin): the admin who just installed,
 * proved by that grant, is signed in to the admin page, which needs no second sign-in.
 */
export function signInInstallingAdmin(options: AdminSessionStartOptions) {
  return (
    installed: {
      accountId: string;
      subdomain: string;
      installer: { id: number; name: string; locale: string | null };
    },
    req: Request,
    res: Response,
  ): Promise<void> =>
    startAdminSession(
      options,
      {
        accountId: installed.accountId,
        subdomain: installed.subdomain,
        zendeskUserId: installed.installer.id,
        userName: installed.installer.name,
        locale: installed.installer.locale,
      },
      'installation',
      req,
      res,
    );
}
