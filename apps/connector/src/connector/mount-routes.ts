// The connector's HTTP surface, in the order a request meets it: logging, operations, both
// webhook receivers, install and sign-in, the admin page and API, the sidebar, the error handler.
import express, { type Express, type RequestHandler, type Router } from 'express';
import { ACCESS_CAUSES } from '@incident-desk/admin-contract';
import type { TDatabase } from '@incident-desk/db';
import {
  accountsRouter,
  createIncidentSubscriptionDirectory,
  createZendeskWebhookDirectory,
  oauthStartLimiter,
  pageSecurityHeaders,
  requestSetup,
  zendeskBaseUrl,
} from '../accounts';
import {
  adminRouter,
  completeAdminSignIn,
  completeDisconnectAuthorization,
  cookiePolicyFor,
  signInInstallingAdmin,
} from '../admin';
import type { ConnectorConfig } from '../config';
import {
  createErrorHandler,
  incidentWebhookRouter,
  operationsRouter,
  requestLogging,
  serviceIndex,
  ticketingWebhookRouter,
} from '../http';
import type { ConnectorLogger } from '../log';
import type { ConnectorMetrics } from '../metrics';
import { sidebarApiRouter } from '../sidebar-api';
import {
  clearWriteFailure,
  recordZendeskWebhookHealth,
  throttledZendeskWebhookHealth,
} from '../sync';
import { SYNC_QUEUES } from '../worker';
import type { ConnectorServices } from './build-services';

export interface RoutesInput {
  config: ConnectorConfig;
  db: TDatabase;
  services: ConnectorServices;
  logger: ConnectorLogger;
  metrics: ConnectorMetrics;
  adminDistDir: string;
  sidebarDistDir: string;
}

export function mountRoutes(input: RoutesInput): Express {
  const { config, logger, metrics } = input;
  const app = express();
  app.disable('x-powered-by');
  if (config.trustProxy > 0) app.set('trust proxy', config.trustProxy);
  app.use(requestLogging(logger, metrics));
  // One count per client across /install and /admin/sign-in (in this process's memory).
  const startLimiter = oauthStartLimiter(config.oauthStartLimit);
  app.get(
    '/',
    pageSecurityHeaders({
      baseUrlTemplate: config.oauth.baseUrlTemplate,
      secure: config.production,
    }),
    serviceIndex(config.publicUrl, config.demo),
  );
  // browsers ask for it on every page of the connector's origin: no icon, and no 404 to log
  app.get('/favicon.ico', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=86400').status(204).end();
  });
  app.use(operationsRoutes(input));
  app.use(...webhookReceivers(input));
  app.use(installRoutes(input, startLimiter));
  app.use(adminRoutes(input, startLimiter));
  app.use(sidebarRoutes(input));
  app.use(createErrorHandler(logger));
  return app;
}

function operationsRoutes({ config, db, services, logger, metrics }: RoutesInput): Router {
  return operationsRouter({
    db,
    boss: services.boss,
    probeQueue: SYNC_QUEUES[0],
    queues: services.queues,
    ticketWrites: services.ticketWrites,
    metrics,
    metricsToken: config.metricsToken,
    detailsFromLoopback: !config.production,
    migrationsAtStart: services.migrationsAtStart,
    queueRunning: services.queueRunning,
    logger,
  });
}

function webhookReceivers({ config, db, services, logger }: RoutesInput): Router[] {
  const { inbox, secretBox } = services;
  return [
    incidentWebhookRouter({
      inbox,
      subscriptions: createIncidentSubscriptionDirectory(db, secretBox),
      logger,
    }),
    ticketingWebhookRouter({
      inbox,
      accounts: createZendeskWebhookDirectory(db, secretBox),
      logger,
      recordDelivery: throttledZendeskWebhookHealth(db),
      recordTest: (accountId, at) => recordZendeskWebhookHealth(db, accountId, at),
      deliveryLimit: config.zendeskDeliveryLimit,
    }),
  ];
}

/** /install and /oauth/callback, whose callback also completes admin sign-ins and disconnects. */
function installRoutes(
  { config, db, services }: RoutesInput,
  startLimiter: RequestHandler,
): Router {
  const { boss, secretBox } = services;
  const adminCookies = cookiePolicyFor(config.publicUrl);
  return accountsRouter({
    db,
    secretBox,
    oauth: config.oauth,
    cookies: adminCookies,
    startLimiter,
    // Setup runs in a worker, durably (a pg-boss job), as soon as the install is stored. An
    // authorisation also ends a write failure that waited for one: the next write tells anew.
    onInstalled: async ({ accountId }) => {
      await clearWriteFailure(db, accountId, new Date(), ACCESS_CAUSES);
      await requestSetup(db, boss, accountId, new Date());
    },
    // the installing admin lands on the admin page signed in: the install's grant proved who
    onInstalledByAdmin: signInInstallingAdmin({ db, cookies: adminCookies, now: Date.now }),
    onAdminSignIn: completeAdminSignIn({
      db,
      oauth: config.oauth,
      cookies: adminCookies,
      now: Date.now,
    }),
    onDisconnectAuthorized: completeDisconnectAuthorization({
      db,
      secretBox,
      oauth: config.oauth,
      cookies: adminCookies,
      now: Date.now,
    }),
  });
}

function adminRoutes(input: RoutesInput, startLimiter: RequestHandler): Router {
  const { config, db, services, logger } = input;
  return adminRouter({
    db,
    boss: services.boss,
    inbox: services.inbox,
    secretBox: services.secretBox,
    accounts: services.accounts,
    oauth: config.oauth,
    cookies: cookiePolicyFor(config.publicUrl),
    publicOrigin: new URL(config.publicUrl).origin,
    connectorUrl: config.publicUrl,
    ...(config.marketplace ? { marketplace: config.marketplace } : {}),
    logger,
    startLimiter,
    ...(config.incidentApiUrl ? { incidentApiUrl: config.incidentApiUrl } : {}),
    ...(config.incidentConsoleUrl ? { incidentConsoleUrl: config.incidentConsoleUrl } : {}),
    distDir: input.adminDistDir,
    now: Date.now,
    ticketWrites: services.ticketWrites,
  });
}

function sidebarRoutes({ config, db, services, logger, sidebarDistDir }: RoutesInput): Router {
  return sidebarApiRouter({
    db,
    accounts: services.accounts,
    inbox: services.inbox,
    appId: config.sidebar.appId,
    distDir: sidebarDistDir,
    zendeskOriginOf: (subdomain) =>
      new URL(zendeskBaseUrl(config.oauth.baseUrlTemplate, subdomain)).origin,
    log: (message) => logger.info(message),
  });
}
