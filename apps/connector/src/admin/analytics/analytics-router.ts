// GET /admin/api/analytics and GET /admin/api/analytics.csv?chart=...: the takedown analytics of
// the signed-in admin's account (its own incident clients only), behind the same session as every
// admin route. Its own router, mounted before the admin API router.
import express, { type Router } from 'express';
import {
  AccountUnavailableError,
  agentTicketUrls,
  type DatabaseAccountContextProvider,
} from '../../accounts';
import { sendError } from '../../http';
import { adminCallerOf, requireAdminSession } from '../admin-auth';
import type { AdminApiOptions } from '../admin-api-router';
import { zendeskAdminRoleChecker } from '../admin-role-check';
import { AnalyticsService } from './analytics';
import { chartCsv, CSV_CHARTS, type TCsvChart } from './analytics-csv';

export interface AnalyticsRouterOptions extends AdminApiOptions {
  /** Shared between requests (its caches); one is made when omitted. */
  analytics?: AnalyticsService;
}

const isChart = (value: unknown): value is TCsvChart =>
  typeof value === 'string' && (CSV_CHARTS as readonly string[]).includes(value);

/** The account's analytics, or an answer already sent (unknown client, account not ready). */
async function loadAnalytics(
  analytics: AnalyticsService,
  accounts: DatabaseAccountContextProvider,
  req: express.Request,
  res: express.Response,
) {
  const { accountId } = adminCallerOf(res).session;
  let clients;
  try {
    clients = await accounts.clientsFor(accountId);
  } catch (error) {
    if (error instanceof AccountUnavailableError) {
      sendError(
        res,
        error.reason,
        error.reason === 'not_configured'
          ? 'connect the incident service first'
          : 'authorise incident-desk with Zendesk again first',
        { status: 409 },
      );
      return null;
    }
    throw error;
  }
  const requested = req.query.client;
  let clientFilter: string | null = null;
  if (requested !== undefined && requested !== '') {
    // only the account's own clients; another id is not looked up at all
    if (typeof requested !== 'string' || !clients.incidentClientIds.includes(requested)) {
      sendError(res, 'unknown_client', 'no such incident client in this account');
      return null;
    }
    clientFilter = requested;
  }
  return analytics.forAccount(
    {
      accountId,
      clientIds: clients.incidentClientIds,
      client: (id) => clients.incidents(id),
    },
    clientFilter,
  );
}

export function adminAnalyticsRouter(options: AnalyticsRouterOptions): Router {
  const router = express.Router();
  const analytics = options.analytics ?? new AnalyticsService(options.db, options.now);
  const accounts: DatabaseAccountContextProvider = options.accounts;
  const paths = ['/admin/api/analytics', '/admin/api/analytics.csv'];
  router.use(
    paths,
    requireAdminSession({
      ...options,
      checkRole: options.checkRole ?? zendeskAdminRoleChecker(options.accounts),
    }),
  );

  const load = (req: express.Request, res: express.Response) =>
    loadAnalytics(analytics, accounts, req, res);

  router.get('/admin/api/analytics', async (req, res) => {
    const result = await load(req, res);
    if (!result) return;
    const { subdomain } = adminCallerOf(res).session;
    const ticketUrlOf = agentTicketUrls(options.oauth.baseUrlTemplate, subdomain);
    res.json({
      ...result,
      waitingOnCustomer: {
        rows: result.waitingOnCustomer.rows.map((row) => ({
          ...row,
          ticketUrl: row.ticketId === null ? null : ticketUrlOf(row.ticketId),
        })),
      },
    });
  });

  router.get('/admin/api/analytics.csv', async (req, res) => {
    const chart = req.query.chart;
    if (!isChart(chart)) {
      sendError(res, 'unknown_chart', `chart must be one of ${CSV_CHARTS.join(', ')}`);
      return;
    }
    const result = await load(req, res);
    if (!result) return;
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="incident-desk-${chart}.csv"`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.send(chartCsv(result, chart));
  });

  return router;
}
