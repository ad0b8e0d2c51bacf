// The admin page's JSON API. Every route acts on the session's account only: no route takes an
// account id, and ids in paths (failures, tickets) are looked up within that account.
import express, { type Router } from 'express';
import { AccountUnavailableError } from '../accounts';
import { sendError } from '../http';
import { accountRoutes } from './account-routes';
import { requireAdminSession } from './admin-auth';
import type { AdminApiOptions } from './admin-api-options';
import { zendeskAdminRoleChecker } from './admin-role-check';
import { disconnectRoutes } from './disconnect-routes';
import { failureRoutes } from './failure-routes';

export type { AdminApiOptions } from './admin-api-options';

const UNAVAILABLE_SENTENCE: Record<AccountUnavailableError['reason'], string> = {
  unknown_account: 'This account is not connected to incident-desk.',
  reauthorization_required:
    'Zendesk no longer accepts incident-desk’s authorisation: reconnect Zendesk to continue.',
  not_configured: 'The incident API key is not saved yet.',
  disconnected: 'incident-desk is disconnected from this Zendesk account.',
};

export function adminApiRouter(options: AdminApiOptions): Router {
  const router = express.Router();
  // The session first: nothing of a request without one is read, not even its body.
  router.use(
    '/admin/api',
    requireAdminSession({
      ...options,
      checkRole: options.checkRole ?? zendeskAdminRoleChecker(options.accounts),
    }),
  );
  router.use('/admin/api', express.json({ limit: '16kb' }));
  router.use(
    '/admin/api',
    accountRoutes(options),
    failureRoutes(options),
    disconnectRoutes(options),
  );

  router.use('/admin/api', (_req, res) => {
    sendError(res, 'not_found', 'no such admin route');
  });

  // An account that cannot act (not configured, re-authorisation needed) is a state to show.
  router.use(
    '/admin/api',
    (error: unknown, _req: express.Request, res: express.Response, next: express.NextFunction) => {
      if (error instanceof AccountUnavailableError) {
        // the reason in an admin's words: never the internal account id the error carries
        sendError(res, error.reason, UNAVAILABLE_SENTENCE[error.reason], { status: 409 });
        return;
      }
      next(error);
    },
  );
  return router;
}
