// POST /ticketing/webhook: Zendesk trigger deliveries. The body holds identifiers only (the
// connector reads the ticket itself later); it is verified with the account's webhook signing
// secret over the raw bytes, deduplicated on a durable key, and enqueued.
import { createHash } from 'node:crypto';
import express, { type Router } from 'express';
import { verifyZendeskWebhook } from '@incident-desk/zendesk-api';
import {
  TICKET_EVENT_QUEUE,
  ticketOrderingKey,
  ZTicketingWebhookBody,
  type TicketEventJob,
  type TTicketingWebhookBody,
} from '../jobs/ticket-event-job';
import { checkDeliveryAccount } from '../accounts/zendesk-account-identity';
import type { Inbox } from '../ingest/inbox';
import { logger as processLogger, type Logger } from '../log/logger';
import { sendError, sendUnavailable } from './app-error';
import { answerAfterDurableWrite } from './answer-after-write';
import { labelRequests } from './request-logging';
import { parseJsonObject, rawBodyOf, rawJsonBody } from './raw-json-body';

export interface ZendeskWebhookDirectory {
  /** Every signing secret now valid for the account's Zendesk webhook; null when unknown. */
  find(accountId: string): Promise<{
    accountId: string;
    secrets: string[];
    /** Zendesk's account id the installation is bound to; null until its first delivery. */
    zendeskAccountId?: bigint | null;
  } | null>;
  /** Binds the installation to Zendesk's account id; false when bound to another one. */
  bindZendeskAccount?(accountId: string, zendeskAccountId: bigint): Promise<boolean>;
}

export interface TicketingWebhookOptions {
  inbox: Inbox;
  accounts: ZendeskWebhookDirectory;
  /** Default 64 KiB: the body carries identifiers only. */
  bodyLimitBytes?: number;
  toleranceSeconds?: number;
  now?: () => Date;
  logger?: Logger;
  /** Told of each delivery signed by the account's secret (the admin page's "last from Zendesk"). */
  recordDelivery?: (accountId: string, at: Date) => Promise<void>;
}

/**
 * Every key is made of what the signature covers, never of a header an attacker may change: the
 * same signed bytes sent again with other invocation ids are one delivery. A report is keyed by
 * ticket and mode, so a threat is never reported twice from one ticket; a report that created
 * nothing (refused, invalid Threat) releases its receipt in the worker
 * (ingest/release-receipt.ts), so the submit tag added again is a new request. A comment or
 * action is keyed by the hash of its signed body, which names the update that fired it
 * (updatedAt) and, for comments, the latest comment's id: Zendesk's retries resend the same body
 * (re-signed with a new timestamp), while two replies within one second (updated_at has whole
 * seconds) differ in their comment id. The worker also keeps every forwarded comment id and
 * checks the request tag.
 */
function dedupeKeyOf(body: TTicketingWebhookBody, rawBody: Buffer): string | null {
  if (body.kind === 'report') return `ticket-report:${body.ticketId}:${body.mode}`;
  const occurrence = body.updatedAt || (body.kind === 'comment' && body.commentId);
  if (!occurrence) return null;
  const request = body.kind === 'action' ? `${body.kind}:${body.action}` : body.kind;
  const digest = createHash('sha256').update(rawBody).digest('hex');
  return `ticket-${request}:${body.ticketId}:sha256:${digest}`;
}

export function ticketingWebhookRouter(options: TicketingWebhookOptions): Router {
  const router = express.Router();
  const logger = options.logger ?? processLogger;

  router.post(
    '/ticketing/webhook',
    // a refused delivery's request line says so, with its reason and account
    labelRequests('ticketing webhook', 'zendesk'),
    ...rawJsonBody(options.bodyLimitBytes ?? 64 * 1024),
    async (req, res) => {
      const accountId = typeof req.query.account === 'string' ? req.query.account : '';
      let account: Awaited<ReturnType<typeof options.accounts.find>>;
      try {
        account = accountId ? await options.accounts.find(accountId) : null;
      } catch (error) {
        logger.error('ticketing webhook: account lookup failed', { error });
        return sendUnavailable(res, 'could not read the account; retry later');
      }
      if (!account) return sendError(res, 'unknown_account', 'no account matches this address');
      res.locals.accountId = account.accountId;

      const rawBody = rawBodyOf(req.body);
      const verification = verifyZendeskWebhook({
        secret: account.secrets,
        rawBody,
        signature: req.get('x-zendesk-webhook-signature'),
        timestamp: req.get('x-zendesk-webhook-signature-timestamp'),
        ...(options.now ? { now: options.now() } : {}),
        ...(options.toleranceSeconds === undefined
          ? {}
          : { toleranceSeconds: options.toleranceSeconds }),
      });
      if (!verification.ok) {
        // a missing or wrong signature is 401, a bad timestamp 400 (the table)
        return sendError(
          res,
          verification.reason,
          `webhook signature check failed: ${verification.reason}`,
        );
      }

      // Signed by this installation's secret; now it must also come from its Zendesk account.
      const identity = checkDeliveryAccount(
        account.zendeskAccountId ?? null,
        req.get('x-zendesk-account-id'),
      );
      if (!identity.ok)
        return sendError(res, identity.code, identity.message, { status: identity.status });
      if (identity.bind !== undefined && options.accounts.bindZendeskAccount) {
        let bound: boolean;
        try {
          bound = await options.accounts.bindZendeskAccount(account.accountId, identity.bind);
        } catch (error) {
          logger.error('ticketing webhook: account binding failed', { error });
          return sendUnavailable(res, 'could not read the account; retry later');
        }
        if (!bound) {
          return sendError(
            res,
            'account_mismatch',
            'the delivery comes from another Zendesk account than this installation’s',
          );
        }
      }

      const json = parseJsonObject(rawBody);
      if (!json) return sendError(res, 'malformed_json', 'body is not a JSON object');
      const parsed = ZTicketingWebhookBody.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return sendError(
          res,
          'invalid_body',
          `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`,
        );
      }
      const body = parsed.data;
      const dedupeKey = dedupeKeyOf(body, rawBody);
      if (!dedupeKey) {
        return sendError(
          res,
          'missing_occurrence',
          'comment and action deliveries need updatedAt (or, for a comment, commentId)',
        );
      }
      const job: TicketEventJob = {
        accountId: account.accountId,
        receivedAt: (options.now?.() ?? new Date()).toISOString(),
        via: 'trigger',
        body,
      };

      await answerAfterDurableWrite(
        res,
        async () => {
          const outcome = await options.inbox.accept({
            source: 'zendesk',
            dedupeKey: `${account.accountId}:${dedupeKey}`,
            accountId: account.accountId,
            payload: json,
            rawBody,
            job: {
              queue: TICKET_EVENT_QUEUE,
              data: job,
              singletonKey: ticketOrderingKey(account.accountId, body.ticketId),
            },
          });
          // Best effort, after the durable write: a stored delivery proves the webhook works, and
          // its health time is no reason to refuse or delay it.
          await options
            .recordDelivery?.(account.accountId, options.now?.() ?? new Date())
            .catch((error: unknown) =>
              logger.warn('ticketing webhook: health not recorded', { error }),
            );
          return outcome;
        },
        { logger, receiver: 'ticketing webhook', what: 'delivery' },
      );
    },
  );
  return router;
}
