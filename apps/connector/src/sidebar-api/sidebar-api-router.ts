// The connector side of the sidebar API (apps/sidebar/SIDEBAR_API.md): the signed page that opens
// a session, its renewal, one GET with everything the view needs, and the actions. Every ticket
// route is authenticated by authenticateSidebar, and acts only on a ticket the user may see. The
// routes by group: session-renew-router.ts, ticket-read-router.ts, ticket-action-router.ts,
// ticket-report-router.ts.
import express, { type Router } from 'express';
import type { TDatabase } from '@incident-desk/db';
import type { AccountContextProvider } from '../accounts';
import type { Inbox } from '../ingest';
import { createAgentChecker } from './agent-access';
import { createAppPublicKeys } from './app-public-key';
import { authenticateSidebar } from './authenticate';
import { IncidentClientIds } from './incident-parts';
import { sessionRenewRouter } from './session-renew-router';
import { sidebarPageRouter } from './sidebar-page';
import { createSidebarSessions } from './sidebar-sessions';
import { ticketActionRouter } from './ticket-action-router';
import { ticketReadRouter } from './ticket-read-router';
import { ticketReportRouter } from './ticket-report-router';
import type { TicketRouteDeps } from './ticket-route-answers';

export interface SidebarApiOptions {
  db: TDatabase;
  accounts: AccountContextProvider;
  /** The app's id in Zendesk: whose public key verifies the signed page requests. */
  appId: number;
  /** The built sidebar app (apps/sidebar/dist). */
  distDir: string;
  /** The agent workspace origin of an account (the page's frame-ancestors). */
  zendeskOriginOf(subdomain: string): string;
  /** Needed by report and retry-forward (they enqueue ticket jobs); without it they answer 501. */
  inbox?: Inbox;
  now?: () => Date;
  /** How long an agent check is trusted. Default 60 s. */
  agentCacheMs?: number;
  /** Least time between two reads of the app's public key after a failed signature. Default 60 s. */
  publicKeyRefetchMs?: number;
  log?: (message: string) => void;
}

export function sidebarApiRouter(options: SidebarApiOptions): Router {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const router = express.Router();
  const agents = createAgentChecker({ ttlMs: options.agentCacheMs ?? 60_000, now });
  const sessions = createSidebarSessions(db, now);
  const authenticate = authenticateSidebar({ sessions, accounts: options.accounts, agents });
  router.use(
    sidebarPageRouter({
      db,
      accounts: options.accounts,
      agents,
      sessions,
      publicKeys: createAppPublicKeys({
        now: () => now().getTime(),
        minRefetchIntervalMs: options.publicKeyRefetchMs ?? 60_000,
      }),
      appId: options.appId,
      distDir: options.distDir,
      zendeskOriginOf: options.zendeskOriginOf,
      now,
      log: options.log ?? console.log,
    }),
  );
  router.use(sessionRenewRouter({ accounts: options.accounts, agents, sessions }));
  const deps: TicketRouteDeps = {
    db,
    now,
    authenticate,
    ...(options.inbox ? { inbox: options.inbox } : {}),
  };
  router.use(ticketReadRouter({ ...deps, incidentClientIds: new IncidentClientIds() }));
  router.use(ticketActionRouter(deps));
  router.use(ticketReportRouter(deps));
  return router;
}
