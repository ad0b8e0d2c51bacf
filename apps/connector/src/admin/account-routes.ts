// The admin's session, and the account's overview, checklist, settings, connections and setup.
import express, { type Router } from 'express';
import { z } from 'zod';
import {
  hasScopes,
  readOwnDomains,
  readSetupStatus,
  requestSetup,
  saveAccountSettings,
  saveOwnDomains,
  ZAccountSettingsUpdate,
  zendeskBaseUrl,
  ZOwnDomains,
} from '../accounts';
import { AppError, sendAppError, sendError } from '../http';
import { adminCallerOf } from './admin-auth';
import { clearSessionCookie, clearSessionMarker } from './admin-cookie';
import { canRemoveNow } from '../disconnect';
import { adminOverview } from './admin-overview';
import { sendResult } from './admin-result';
import type { AdminApiOptions } from './admin-api-options';
import { csrfTokenOf, deleteAdminSession } from './admin-sessions';
import { firstRunChecklist } from './first-run';
import { saveIncidentConnection } from './incident-connection';
import { retryTicketWritesNow } from './ticket-write-retry';
import { sendTestDeliveries } from './webhook-test';
import { listZendeskGroups } from './zendesk-groups';

export function accountRoutes(options: AdminApiOptions): Router {
  const { db, oauth, now } = options;
  const router = express.Router();
  const accountOf = (res: express.Response) => adminCallerOf(res).session.accountId;

  router.get('/session', (_req, res) => {
    const { session, token } = adminCallerOf(res);
    res.json({
      subdomain: session.subdomain,
      userName: session.userName,
      locale: session.language,
      expiresAt: session.expiresAt,
      csrfToken: csrfTokenOf(token),
    });
  });

  router.post('/sign-out', async (_req, res) => {
    await deleteAdminSession(db, adminCallerOf(res).token);
    clearSessionCookie(res, options.cookies);
    clearSessionMarker(res, options.cookies);
    res.status(204).end();
  });

  router.get('/overview', async (_req, res) => {
    const accountId = accountOf(res);
    const [overview, removable] = await Promise.all([
      adminOverview(db, oauth, accountId, options.ticketWrites),
      canRemoveNow(
        { db, oauth, secretBox: options.secretBox, now: () => new Date(now()) },
        accountId,
      ),
    ]);
    // whether Disconnect can remove setup's objects now, or Zendesk must authorise it first
    res.json({ ...overview, disconnect: { canRemoveNow: removable } });
  });

  router.get('/first-run', async (_req, res) => {
    res.json(
      await firstRunChecklist(
        db,
        accountOf(res),
        (subdomain) => zendeskBaseUrl(oauth.baseUrlTemplate, subdomain),
        adminCallerOf(res).session.language,
      ),
    );
  });

  router.post('/webhooks/test', async (_req, res) => {
    sendResult(res, await sendTestDeliveries(options, accountOf(res), new Date(now())), 202);
  });

  router.get('/zendesk-groups', async (_req, res) => {
    sendResult(res, await listZendeskGroups(options.accounts, accountOf(res)));
  });

  router.put('/settings', async (req, res) => {
    const parsed = ZAccountSettingsUpdate.safeParse(req.body);
    if (!parsed.success) {
      sendError(res, 'invalid_settings', z.prettifyError(parsed.error));
      return;
    }
    res.json(await saveAccountSettings(db, accountOf(res), parsed.data));
  });

  // the client's own domains, never offered as threats found in a ticket (the sidebar)
  router.get('/own-domains', async (_req, res) => {
    res.json({ ownDomains: await readOwnDomains(db, accountOf(res)) });
  });

  router.put('/own-domains', async (req, res) => {
    const parsed = z.object({ ownDomains: ZOwnDomains }).strict().safeParse(req.body);
    if (!parsed.success) {
      sendError(res, 'invalid_own_domains', z.prettifyError(parsed.error));
      return;
    }
    res.json({ ownDomains: await saveOwnDomains(db, accountOf(res), parsed.data.ownDomains) });
  });

  router.put('/incident-connection', async (req, res) => {
    sendResult(res, await saveIncidentConnection(options, accountOf(res), req.body));
  });

  router.post('/setup/rerun', rerunSetup(options));

  // "Retry now": the account's waiting ticket changes are written at the writer's next pass
  router.post('/ticket-writes/retry', async (_req, res) => {
    res.status(202).json(await retryTicketWritesNow(db, accountOf(res), new Date(now())));
  });

  return router;
}

/** "Run setup" from the admin page: queued, unless a run is under way or the scopes are gone. */
function rerunSetup(options: AdminApiOptions): express.RequestHandler {
  const { db, boss, oauth, now } = options;
  return async (_req, res) => {
    const { accountId, subdomain } = adminCallerOf(res).session;
    // One setup at a time per account, and a run under way answers for this request (whatever the
    // token holds meanwhile): queued behind it, the request would run after the run has narrowed
    // the token to the steady state's scopes, and end asking for an authorisation the account no
    // longer needs.
    const { state } = await readSetupStatus(db, accountId);
    if (state === 'queued' || state === 'running') {
      res.status(202).json({ state });
      return;
    }
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
  };
}
