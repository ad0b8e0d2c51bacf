// The admin page's JSON API. Every route acts on the session's account only: no route takes an
// account id, and ids in paths (failures, tickets) are looked up within that account.
import express, { type Router } from 'express';
import { z } from 'zod';
import type { PgBoss, TDatabase } from '@incident-desk/db';
import { AccountUnavailableError } from '../accounts/account-context';
import type { DatabaseAccountContextProvider } from '../accounts/account-context-provider';
import {
  rotateSidebarSecret,
  saveAccountSettings,
  ZAccountSettingsUpdate,
} from '../accounts/account-configuration';
import { hasScopes } from '../accounts/scopes';
import { requestSetup } from '../accounts/setup-job';
import type { TZendeskOAuthConfig } from '../accounts/zendesk-oauth-config';
import type { Inbox } from '../ingest/inbox';
import type { SecretBox } from '../secrets/secret-box';
import { clearSessionCookie, type CookiePolicy } from './admin-cookie';
import { adminCallerOf, requireAdminSession, sendAdminError } from './admin-auth';
import { adminOverview } from './admin-overview';
import { csrfTokenOf, deleteAdminSession } from './admin-sessions';
import { listDeadLetters, retryFailedJob, retrySyncFailure } from './dead-letters';
import { linkTicket, listReconciliation, retryReconciliation } from './reconciliation';

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
  /** The incident service new connections use (the admin page does not choose hosts). */
  incidentApiUrl?: string;
  now: () => number;
}

/** The incident connection as the admin edits it: the key is write-only, kept when omitted. */
const ZIncidentConnectionUpdate = z
  .object({
    apiKey: z.string().trim().min(1).max(500).optional(),
    clientId: z.string().trim().min(1).max(200),
    subClientIds: z.array(z.string().trim().min(1).max(200)).max(100).default([]),
  })
  .strict();

export function adminApiRouter(options: AdminApiOptions): Router {
  const { db, boss, secretBox, oauth, now } = options;
  const router = express.Router();
  // The session first: nothing of a request without one is read, not even its body.
  router.use('/admin/api', requireAdminSession(options));
  router.use('/admin/api', express.json({ limit: '16kb' }));

  router.get('/admin/api/session', (_req, res) => {
    const { session, token } = adminCallerOf(res);
    res.json({
      subdomain: session.subdomain,
      userName: session.userName,
      expiresAt: session.expiresAt,
      csrfToken: csrfTokenOf(token),
    });
  });

  router.post('/admin/api/sign-out', async (_req, res) => {
    await deleteAdminSession(db, adminCallerOf(res).token);
    clearSessionCookie(res, options.cookies);
    res.status(204).end();
  });

  router.get('/admin/api/overview', async (_req, res) => {
    res.json(await adminOverview(db, oauth, adminCallerOf(res).session.accountId));
  });

  router.put('/admin/api/settings', async (req, res) => {
    const parsed = ZAccountSettingsUpdate.safeParse(req.body);
    if (!parsed.success) {
      sendAdminError(res, 400, 'invalid_settings', z.prettifyError(parsed.error));
      return;
    }
    res.json(await saveAccountSettings(db, adminCallerOf(res).session.accountId, parsed.data));
  });

  router.put('/admin/api/incident-connection', async (req, res) => {
    const { accountId } = adminCallerOf(res).session;
    const parsed = ZIncidentConnectionUpdate.safeParse(req.body);
    if (!parsed.success) {
      sendAdminError(res, 400, 'invalid_connection', z.prettifyError(parsed.error));
      return;
    }
    const current = await db.prisma.accountConfiguration.findUnique({ where: { accountId } });
    const baseUrl = current?.incidentApiBaseUrl ?? options.incidentApiUrl;
    if (!baseUrl) {
      sendAdminError(res, 409, 'no_incident_service', 'no incident service is configured');
      return;
    }
    if (!parsed.data.apiKey && !current?.sealedIncidentApiKey) {
      sendAdminError(res, 400, 'api_key_required', 'the incident API key is not set yet');
      return;
    }
    const { clientId } = parsed.data;
    const data = {
      incidentApiBaseUrl: baseUrl,
      incidentClientId: clientId,
      incidentSubClientIds: [...new Set(parsed.data.subClientIds)].filter((id) => id !== clientId),
      ...(parsed.data.apiKey
        ? { sealedIncidentApiKey: await secretBox.seal(parsed.data.apiKey) }
        : {}),
    };
    await db.prisma.accountConfiguration.upsert({
      where: { accountId },
      create: { accountId, ...data },
      update: data,
    });
    res.json({
      apiKey: 'set',
      clientId: data.incidentClientId,
      subClientIds: data.incidentSubClientIds,
    });
  });

  router.post('/admin/api/setup/rerun', async (_req, res) => {
    const { accountId, subdomain } = adminCallerOf(res).session;
    const credential = await db.prisma.zendeskCredential.findUnique({ where: { accountId } });
    const authorizeUrl = `/install?${new URLSearchParams({ subdomain })}`;
    if (
      !credential ||
      credential.state !== 'active' ||
      (credential.grant === 'authorization_code' && !hasScopes(credential.scope, oauth.setupScope))
    ) {
      // A refresh can only narrow: setup's scopes need the admin to authorise them again, and the
      // install callback queues setup once they are granted.
      res.status(409).json({
        error: {
          code: 'authorization_needed',
          message: `setup needs "${oauth.setupScope}": authorise it with Zendesk`,
        },
        authorizeUrl,
      });
      return;
    }
    await requestSetup(db, boss, accountId, new Date(now()));
    res.status(202).json({ state: 'queued' });
  });

  router.post('/admin/api/sidebar-secret/rotate', async (_req, res) => {
    const secret = await rotateSidebarSecret(db, secretBox, adminCallerOf(res).session.accountId);
    res.json({ secret, setting: 'shared_secret' });
  });

  router.get('/admin/api/dead-letters', async (_req, res) => {
    res.json(await listDeadLetters(db, boss, adminCallerOf(res).session.accountId));
  });

  router.post('/admin/api/dead-letters/sync-failures/:id/retry', async (req, res) => {
    const { accountId } = adminCallerOf(res).session;
    if (!(await retrySyncFailure(db, boss, accountId, req.params.id, new Date(now())))) {
      sendAdminError(res, 404, 'not_found', 'no such failure');
      return;
    }
    res.status(202).json({ state: 'queued' });
  });

  router.post('/admin/api/dead-letters/jobs/:queue/:id/retry', async (req, res) => {
    const { accountId } = adminCallerOf(res).session;
    const outcome = await retryFailedJob(boss, accountId, req.params.queue, req.params.id);
    if (outcome !== 'retried') {
      if (outcome === 'conflict')
        sendAdminError(res, 409, 'conflict', 'the job cannot be queued again now; try later');
      else sendAdminError(res, 404, 'not_found', 'no such failed job');
      return;
    }
    res.status(202).json({ state: 'queued' });
  });

  router.get('/admin/api/reconciliation', async (_req, res) => {
    res.json({ entries: await listReconciliation(db, adminCallerOf(res).session.accountId) });
  });

  router.post('/admin/api/reconciliation/:ticketId/link', async (req, res) => {
    const body = (req.body ?? {}) as { incidentId?: unknown };
    const result = await linkTicket(
      options,
      adminCallerOf(res).session,
      req.params.ticketId,
      body.incidentId,
      new Date(now()),
    );
    res.status(result.status).json(result.code ? { error: result } : result);
  });

  router.post('/admin/api/reconciliation/:ticketId/retry', async (req, res) => {
    const result = await retryReconciliation(
      options,
      adminCallerOf(res).session,
      req.params.ticketId,
      new Date(now()),
    );
    res.status(result.status).json(result.code ? { error: result } : result);
  });

  router.use('/admin/api', (_req, res) => {
    sendAdminError(res, 404, 'not_found', 'no such admin route');
  });

  // An account that cannot act (not configured, re-authorisation needed) is a state to show.
  router.use(
    '/admin/api',
    (error: unknown, _req: express.Request, res: express.Response, next: express.NextFunction) => {
      if (error instanceof AccountUnavailableError) {
        sendAdminError(res, 409, error.reason, error.message);
        return;
      }
      next(error);
    },
  );
  return router;
}
