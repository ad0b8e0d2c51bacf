// POST /ticketing/webhook: Zendesk trigger deliveries. The body holds identifiers only (the
// connector reads the ticket itself later); it is verified with the account's webhook signing
// secret over the raw bytes, deduplicated on a durable key, and enqueued.
import express, { type Router } from 'express';
import { z } from 'zod';
import { verifyZendeskWebhook } from '@incident-desk/zendesk-api';
import type { Inbox } from '../ingest/inbox';
import { sendError, sendUnavailable } from './http-error';
import { parseJsonObject, rawBodyOf, rawJsonBody } from './raw-json-body';

export const TICKET_EVENT_QUEUE = 'ticket-event';

export interface ZendeskWebhookDirectory {
  /** Every signing secret now valid for the account's Zendesk webhook; null when unknown. */
  find(accountId: string): Promise<{ accountId: string; secrets: string[] } | null>;
}

export interface TicketingWebhookOptions {
  inbox: Inbox;
  accounts: ZendeskWebhookDirectory;
  /** Default 64 KiB: the body carries identifiers only. */
  bodyLimitBytes?: number;
  toleranceSeconds?: number;
  now?: () => Date;
}

// Trigger templates may render {{ticket.id}} quoted or bare.
const ZTicketId = z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(/^\d{1,19}$/, 'must be a ticket id')
    .transform(Number),
]);
/** The update that fired the trigger ({{ticket.updated_at_with_timestamp}}): tells request occurrences apart. */
const ZOccurrence = z.string().max(64).optional();

export const ZTicketingWebhookBody = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('report'),
    ticketId: ZTicketId,
    mode: z.enum(['takedown', 'monitor']),
    requesterEmail: z.string().max(320).optional(),
  }),
  z.object({ kind: z.literal('comment'), ticketId: ZTicketId, updatedAt: ZOccurrence }),
  z.object({
    kind: z.literal('action'),
    ticketId: ZTicketId,
    action: z.enum(['tkd', 'monitor', 'safe']),
    updatedAt: ZOccurrence,
  }),
]);
export type TTicketingWebhookBody = z.infer<typeof ZTicketingWebhookBody>;

export interface TicketEventJob {
  accountId: string;
  receivedAt: string;
  /** Who asked: a trigger's report stands only while its submit tag is on the ticket. */
  via?: 'trigger' | 'sidebar';
  body: TTicketingWebhookBody;
}

const UNAUTHORISED = new Set(['missing_signature', 'signature_mismatch']);

/**
 * A report is keyed by ticket and mode, so a threat is never reported twice from one ticket; a
 * report that created nothing (refused, invalid Threat) releases its receipt in the worker
 * (ingest/release-receipt.ts), so the submit tag added again is a new request. A
 * comment or action is keyed by Zendesk's invocation id (its retries reuse it), else by the update
 * that fired it; the worker also keeps every forwarded comment id and checks the request tag.
 */
function dedupeKeyOf(body: TTicketingWebhookBody, invocationId: string | undefined): string | null {
  if (body.kind === 'report') return `ticket-report:${body.ticketId}:${body.mode}`;
  // The invocation id first: Zendesk's retries reuse it, while updated_at has whole seconds only,
  // so two replies (or a tag re-added) within one second would share a key and one be lost.
  if (invocationId) return `zendesk-invocation:${invocationId}`;
  const request = body.kind === 'action' ? `${body.kind}:${body.action}` : body.kind;
  return body.updatedAt ? `ticket-${request}:${body.ticketId}:${body.updatedAt}` : null;
}

export function ticketingWebhookRouter(options: TicketingWebhookOptions): Router {
  const router = express.Router();

  router.post(
    '/ticketing/webhook',
    ...rawJsonBody(options.bodyLimitBytes ?? 64 * 1024),
    async (req, res) => {
      const accountId = typeof req.query.account === 'string' ? req.query.account : '';
      let account: Awaited<ReturnType<typeof options.accounts.find>>;
      try {
        account = accountId ? await options.accounts.find(accountId) : null;
      } catch (error) {
        console.error('ticketing webhook: account lookup failed:', error);
        return sendUnavailable(res, 'could not read the account; retry later');
      }
      if (!account)
        return sendError(res, 401, 'unknown_account', 'no account matches this address');

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
        const status = UNAUTHORISED.has(verification.reason) ? 401 : 400;
        return sendError(
          res,
          status,
          verification.reason,
          `webhook signature check failed: ${verification.reason}`,
        );
      }

      const json = parseJsonObject(rawBody);
      if (!json) return sendError(res, 400, 'malformed_json', 'body is not a JSON object');
      const parsed = ZTicketingWebhookBody.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return sendError(
          res,
          400,
          'invalid_body',
          `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`,
        );
      }
      const body = parsed.data;
      const dedupeKey = dedupeKeyOf(body, req.get('x-zendesk-webhook-invocation-id'));
      if (!dedupeKey) {
        return sendError(
          res,
          400,
          'missing_occurrence',
          'comment and action deliveries need updatedAt or an invocation id',
        );
      }
      const job: TicketEventJob = {
        accountId: account.accountId,
        receivedAt: (options.now?.() ?? new Date()).toISOString(),
        via: 'trigger',
        body,
      };

      try {
        const outcome = await options.inbox.accept({
          source: 'zendesk',
          dedupeKey: `${account.accountId}:${dedupeKey}`,
          accountId: account.accountId,
          payload: json,
          job: {
            queue: TICKET_EVENT_QUEUE,
            data: job,
            singletonKey: `${account.accountId}:${body.ticketId}`,
          },
        });
        res.status(200).json({ status: outcome.status });
      } catch (error) {
        console.error('ticketing webhook: durable write failed:', error);
        sendUnavailable(res, 'could not store the delivery; retry later');
      }
    },
  );
  return router;
}
