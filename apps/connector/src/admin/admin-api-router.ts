// The admin page's JSON API. Every route acts on the session's account only: no route takes an
// account id, and ids in paths (failures, tickets) are looked up within that account.
import express, { type Router } from 'express';
import { z } from 'zod';
import type { PgBoss, TDatabase } from '@incident-desk/db';
import { AccountUnavailableError } from '../accounts/account-context';
import type { DatabaseAccountContextProvider } from '../accounts/account-context-provider';
import { saveAccountSettings, ZAccountSettingsUpdate } from '../accounts/account-configuration';
import { hasScopes } from '../accounts/scopes';
import { requestSetup } from '../accounts/setup-job';
import { zendeskBaseUrl, type TZendeskOAuthConfig } from '../accounts/zendesk-oauth-config';
import type { Inbox } from '../ingest/inbox';
import type { SecretBox } from '../secrets/secret-box';
import { secretBinding } from '../secrets/secret-bindings';
import { clearSessionCookie, clearSessionMarker, type CookiePolicy } from './admin-cookie';
import { AppError, sendAppError, sendError } from '../http/app-error';
import { adminCallerOf, requireAdminSession } from './admin-auth';
import { adminOverview } from './admin-overview';
import { firstRunChecklist } from './first-run';
import { sendTestDeliveries } from './webhook-test';
import { listZendeskGroups } from './zendesk-groups';
import { checkIncidentKey } from './incident-key-check';
import { zendeskAdminRoleChecker, type AdminRoleChecker } from './admin-role-check';
import { csrfTokenOf, deleteAdminSession } from './admin-sessions';
import { listDeadLetters, retryFailedJob, retrySyncFailure } from './dead-letters';
import { retryCommentForward } from './comment-forward-retry';
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
  /** An incident's page for people, `{incidentId}` in it; without it incidents are not linked. */
  incidentConsoleUrl?: string;
  now: () => number;
  /** Re-checks the user's Zendesk role (default: GET users/{id} with the account's token). */
  checkRole?: AdminRoleChecker;
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
  /** A ticket's page in the account's agent workspace. */
  const ticketUrlsOf = (subdomain: string) => {
    const agentUrl = `${zendeskBaseUrl(oauth.baseUrlTemplate, subdomain)}/agent/tickets/`;
    return (ticketId: number) => `${agentUrl}${ticketId}`;
  };
  // The session first: nothing of a request without one is read, not even its body.
  router.use(
    '/admin/api',
    requireAdminSession({
      ...options,
      checkRole: options.checkRole ?? zendeskAdminRoleChecker(options.accounts),
    }),
  );
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
    clearSessionMarker(res, options.cookies);
    res.status(204).end();
  });

  router.get('/admin/api/overview', async (_req, res) => {
    res.json(await adminOverview(db, oauth, adminCallerOf(res).session.accountId));
  });

  router.get('/admin/api/first-run', async (_req, res) => {
    res.json(await firstRunChecklist(db, adminCallerOf(res).session.accountId));
  });

  router.post('/admin/api/webhooks/test', async (_req, res) => {
    const result = await sendTestDeliveries(
      db,
      options.accounts,
      adminCallerOf(res).session.accountId,
    );
    if ('error' in result) {
      sendAppError(res, result.error);
      return;
    }
    res.status(202).json(result);
  });

  router.get('/admin/api/zendesk-groups', async (_req, res) => {
    const result = await listZendeskGroups(options.accounts, adminCallerOf(res).session.accountId);
    if ('error' in result) {
      sendAppError(res, result.error);
      return;
    }
    res.json(result);
  });

  router.put('/admin/api/settings', async (req, res) => {
    const parsed = ZAccountSettingsUpdate.safeParse(req.body);
    if (!parsed.success) {
      sendError(res, 'invalid_settings', z.prettifyError(parsed.error));
      return;
    }
    res.json(await saveAccountSettings(db, adminCallerOf(res).session.accountId, parsed.data));
  });

  router.put('/admin/api/incident-connection', async (req, res) => {
    const { accountId } = adminCallerOf(res).session;
    const parsed = ZIncidentConnectionUpdate.safeParse(req.body);
    if (!parsed.success) {
      sendError(res, 'invalid_connection', z.prettifyError(parsed.error));
      return;
    }
    const current = await db.prisma.accountConfiguration.findUnique({ where: { accountId } });
    const baseUrl = current?.incidentApiBaseUrl ?? options.incidentApiUrl;
    if (!baseUrl) {
      sendError(res, 'no_incident_service', 'no incident service is configured');
      return;
    }
    if (!parsed.data.apiKey && !current?.sealedIncidentApiKey) {
      sendError(res, 'api_key_required', 'the incident API key is not set yet');
      return;
    }
    const { clientId } = parsed.data;
    const subClientIds = [...new Set(parsed.data.subClientIds)].filter((id) => id !== clientId);
    const apiKey =
      parsed.data.apiKey ??
      (await secretBox.open(
        current!.sealedIncidentApiKey!,
        secretBinding.incidentApiKey(accountId),
      ));
    // a key the service refuses (or one not covering these clients) is never saved
    const check = await checkIncidentKey({ baseUrl, apiKey, clientId, subClientIds });
    if (!check.ok) {
      sendError(res, check.code, check.message, { status: check.status });
      return;
    }
    const data = {
      incidentApiBaseUrl: baseUrl,
      incidentClientId: clientId,
      incidentClientName: check.clientName,
      incidentSubClientIds: subClientIds,
      ...(parsed.data.apiKey
        ? {
            sealedIncidentApiKey: await secretBox.seal(
              parsed.data.apiKey,
              secretBinding.incidentApiKey(accountId),
            ),
          }
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
      clientName: check.clientName,
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
      const message = `setup needs "${oauth.setupScope}": authorise it with Zendesk`;
      sendAppError(res, new AppError('authorization_needed', { message }), { authorizeUrl });
      return;
    }
    await requestSetup(db, boss, accountId, new Date(now()));
    res.status(202).json({ state: 'queued' });
  });

  router.get('/admin/api/dead-letters', async (_req, res) => {
    const { accountId, subdomain } = adminCallerOf(res).session;
    const consoleUrl = options.incidentConsoleUrl;
    res.json(
      await listDeadLetters(db, boss, accountId, {
        ticketUrlOf: ticketUrlsOf(subdomain),
        incidentUrlOf: (incidentId) =>
          consoleUrl ? consoleUrl.replace('{incidentId}', encodeURIComponent(incidentId)) : null,
      }),
    );
  });

  router.post('/admin/api/dead-letters/sync-failures/:id/retry', async (req, res) => {
    const { accountId } = adminCallerOf(res).session;
    if (!(await retrySyncFailure(db, boss, accountId, req.params.id, new Date(now())))) {
      sendError(res, 'not_found', 'no such failure');
      return;
    }
    res.status(202).json({ state: 'queued' });
  });

  router.post('/admin/api/dead-letters/comment-forwards/:commentId/retry', async (req, res) => {
    const { session } = adminCallerOf(res);
    const result = await retryCommentForward(
      options,
      session,
      req.params.commentId,
      new Date(now()),
    );
    if ('error' in result) sendAppError(res, result.error);
    else res.status(result.status).json(result);
  });

  router.post('/admin/api/dead-letters/jobs/:queue/:id/retry', async (req, res) => {
    const { accountId } = adminCallerOf(res).session;
    const outcome = await retryFailedJob(boss, accountId, req.params.queue, req.params.id);
    if (outcome !== 'retried') {
      if (outcome === 'conflict')
        sendError(res, 'conflict', 'the job cannot be queued again now; try later');
      else sendError(res, 'not_found', 'no such failed job');
      return;
    }
    res.status(202).json({ state: 'queued' });
  });

  router.get('/admin/api/reconciliation', async (_req, res) => {
    const { accountId, subdomain } = adminCallerOf(res).session;
    res.json({ entries: await listReconciliation(db, accountId, ticketUrlsOf(subdomain)) });
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
    if ('error' in result) sendAppError(res, result.error);
    else res.status(result.status).json(result);
  });

  router.post('/admin/api/reconciliation/:ticketId/retry', async (req, res) => {
    const result = await retryReconciliation(
      options,
      adminCallerOf(res).session,
      req.params.ticketId,
      new Date(now()),
    );
    if ('error' in result) sendAppError(res, result.error);
    else res.status(result.status).json(result);
  });

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
