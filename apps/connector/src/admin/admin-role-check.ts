// Admin sessions last 8 hours; the user's Zendesk role can change sooner. Every request of a
// session whose role was last confirmed more than ADMIN_ROLE_RECHECK_MS ago asks Zendesk again
// (GET /api/v2/users/{id}.json with the account's own token): a user who is no longer an active
// admin of the account loses every session there at once. When Zendesk cannot say just now
// (unreachable, 5xx, rate limited) the request is refused with 503 and the session kept, so an
// outage neither signs admins out nor lets an unconfirmed role through. When the account's token
// cannot ask (re-authorization needed, scope gone) the session ends with "sign in again": the
// sign-in confirms the role with the user's own token, so the admin page stays reachable for the
// re-authorization it may be needed for.
import {
  AccountUnavailableError,
  type DatabaseAccountContextProvider,
  isZendeskAccessRefused,
  isZendeskNotFound,
} from '../accounts';
import type { AdminSession } from './admin-sessions';

export const ADMIN_ROLE_RECHECK_MS = 5 * 60 * 1000;

type RoleVerdict = 'admin' | 'not_admin' | 'sign_in_again' | 'unknown';

export type AdminRoleChecker = (session: AdminSession) => Promise<RoleVerdict>;

export function zendeskAdminRoleChecker(
  accounts: Pick<DatabaseAccountContextProvider, 'zendeskFor'>,
): AdminRoleChecker {
  return async (session) => {
    try {
      const zendesk = await accounts.zendeskFor(session.accountId);
      const user = await zendesk.users.show(session.zendeskUserId);
      const active = user.active !== false && user.suspended !== true;
      return active && user.role === 'admin' ? 'admin' : 'not_admin';
    } catch (error) {
      if (isZendeskNotFound(error)) return 'not_admin';
      if (error instanceof AccountUnavailableError || isZendeskAccessRefused(error))
        return 'sign_in_again';
      return 'unknown';
    }
  };
}
