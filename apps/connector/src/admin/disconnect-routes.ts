// POST /admin/api/disconnect: the signed-in admin disconnects their account
// (disconnect/disconnect-account.ts) and reads what was removed. The account, and with it every
// admin session of it, is gone afterwards: the answer ends this browser's session too.
import express, { type Router } from 'express';
import { z } from 'zod';
import { disconnectAccount } from '../disconnect';
import { sendAppError, sendError } from '../http';
import { adminCallerOf } from './admin-auth';
import type { AdminApiOptions } from './admin-api-options';
import { clearSessionCookie, clearSessionMarker } from './admin-cookie';

const ZDisconnectRequest = z.strictObject({ deleteTicketFields: z.boolean() });

export function disconnectRoutes(options: AdminApiOptions): Router {
  const router = express.Router();
  router.post('/disconnect', async (req, res) => {
    const parsed = ZDisconnectRequest.safeParse(req.body);
    if (!parsed.success) {
      sendError(res, 'invalid_body', z.prettifyError(parsed.error));
      return;
    }
    const { session } = adminCallerOf(res);
    const outcome = await disconnectAccount(
      {
        db: options.db,
        secretBox: options.secretBox,
        oauth: options.oauth,
        accounts: options.accounts,
        marketplace: options.marketplace,
        connectorUrl: options.connectorUrl,
        logger: options.logger,
        now: () => new Date(options.now()),
      },
      {
        accountId: session.accountId,
        subdomain: session.subdomain,
        by: session.userName,
        deleteTicketFields: parsed.data.deleteTicketFields,
      },
    );
    if ('error' in outcome) {
      sendAppError(
        res,
        outcome.error,
        outcome.authorizeUrl ? { authorizeUrl: outcome.authorizeUrl } : {},
      );
      return;
    }
    clearSessionCookie(res, options.cookies);
    clearSessionMarker(res, options.cookies);
    res.json(outcome);
  });
  return router;
}
