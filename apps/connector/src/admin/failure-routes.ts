// What did not go through, and putting it through again: dead letters (failed syncs, comment
// forwards, jobs) and the reconciliation queue (reports whose outcome is not known).
import express, { type Router } from 'express';
import { agentTicketUrls } from '../accounts';
import { sendError } from '../http';
import { adminCallerOf } from './admin-auth';
import type { AdminApiOptions } from './admin-api-options';
import { sendResult } from './admin-result';
import { retryCommentForward } from './comment-forward-retry';
import { listDeadLetters, retryFailedJob, retrySyncFailure } from './dead-letters';
import { linkTicket, listReconciliation, retryReconciliation } from './reconciliation';

const QUEUED = { state: 'queued' } as const;

export function failureRoutes(options: AdminApiOptions): Router {
  const { db, boss, now } = options;
  const router = express.Router();
  const ticketUrlsOf = (subdomain: string) =>
    agentTicketUrls(options.oauth.baseUrlTemplate, subdomain);
  const byStatus = (result: { status: number }) => result.status;

  router.get('/dead-letters', async (_req, res) => {
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

  router.post('/dead-letters/sync-failures/:id/retry', async (req, res) => {
    const { accountId } = adminCallerOf(res).session;
    if (!(await retrySyncFailure(db, boss, accountId, req.params.id, new Date(now())))) {
      sendError(res, 'not_found', 'no such failure');
      return;
    }
    res.status(202).json(QUEUED);
  });

  router.post('/dead-letters/comment-forwards/:commentId/retry', async (req, res) => {
    const { session } = adminCallerOf(res);
    const at = new Date(now());
    sendResult(
      res,
      await retryCommentForward(options, session, req.params.commentId, at),
      byStatus,
    );
  });

  router.post('/dead-letters/jobs/:queue/:id/retry', async (req, res) => {
    const { accountId } = adminCallerOf(res).session;
    const outcome = await retryFailedJob(boss, accountId, req.params.queue, req.params.id);
    if (outcome === 'retried') res.status(202).json(QUEUED);
    else if (outcome === 'conflict') {
      sendError(res, 'conflict', 'the job cannot be queued again now; try later');
    } else sendError(res, 'not_found', 'no such failed job');
  });

  router.get('/reconciliation', async (_req, res) => {
    const { accountId, subdomain } = adminCallerOf(res).session;
    res.json({ entries: await listReconciliation(db, accountId, ticketUrlsOf(subdomain)) });
  });

  router.post('/reconciliation/:ticketId/link', async (req, res) => {
    const { incidentId } = (req.body ?? {}) as { incidentId?: unknown };
    const { session } = adminCallerOf(res);
    const at = new Date(now());
    sendResult(
      res,
      await linkTicket(options, session, req.params.ticketId, incidentId, at),
      byStatus,
    );
  });

  router.post('/reconciliation/:ticketId/retry', async (req, res) => {
    const { session } = adminCallerOf(res);
    const at = new Date(now());
    sendResult(res, await retryReconciliation(options, session, req.params.ticketId, at), byStatus);
  });

  return router;
}
