// The admin page's JSON API. Every route acts on the session's account only: no route takes an
// account id, and ids in paths (failures, tickets) are looked up within that account.
import express, { type Router } from 'express';
import type { PgBoss, TDatabase } from '@incident-desk/db';
import type { ZendeskMarketplaceIdentity } from '@incident-desk/zendesk-api';
import { AccountUnavailableError } from '../accounts/account-context';
import type { DatabaseAccountContextProvider } from '../accounts/account-context-provider';
import type { TZendeskOAuthConfig } from '../accounts/zendesk-oauth-config';
import { sendError } from '../http/app-error';
import type { Inbox } from '../ingest/inbox';
import type { Logger } from '../log/logger';
import type { SecretBox } from '../secrets/secret-box';
import type { WriteHealthReader } from '../sync/ticket-writes/write-health-report';
import { accountRoutes } from './account-routes';
import { requireAdminSession } from './admin-auth';
import type { CookiePolicy } from './admin-cookie';
import { zendeskAdminRoleChecker, type AdminRoleChecker } from './admin-role-check';
import { disconnectRoutes } from './disconnect-routes';
import { failureRoutes } from './failure-routes';

export interface AdminApiOptions {
  db: TDatabase;
  boss: PgBoss;
  inbox: Inbox;
  secretBox: SecretBox;
  accounts: DatabaseAccountContextProvider;
  oauth: TZendeskOAuthConfig;
  cookies: CookiePolicy;
  /** The connector's public origin, e.g. https://connector.example.com. */
  publicOrigin: string;
  /** Where Zendesk and the incident service reach the connector (setup's receiver addresses). */
  connectorUrl: string;
  marketplace?: ZendeskMarketplaceIdentity | undefined;
  logger: Logger;
  /** The incident service new connections use (the admin page does not choose hosts). */
  incidentApiUrl?: string;
  /** An incident's page for people, `{incidentId}` in it; without it incidents are not linked. */
  incidentConsoleUrl?: string;
  now: () => number;
  /** The account's ticket-write health, shown in its overview. */
  ticketWrites: Pick<WriteHealthReader, 'account'>;
  /** Re-checks the user's Zendesk role (default: GET users/{id} with the account's token). */
  checkRole?: AdminRoleChecker;
}

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
        sendError(res, error.reason, error.message, { status: 409 });
        return;
      }
      next(error);
    },
  );
  return router;
}
