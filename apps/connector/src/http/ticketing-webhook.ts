// POST /ticketing/webhook: Zendesk trigger deliveries. The body holds identifiers only (the
// connector reads the ticket itself later); it is verified with the account's webhook signing
// secret over the raw bytes (ticketing-webhook-sender.ts), deduplicated on a durable key
// (ticketing-webhook-body.ts), and enqueued. Each account's signed deliveries are held to a rate
// (ingest/delivery-rate.ts) before anything is stored: one tenant cannot flood the shared database.
import express, { type Response, type Router } from 'express';
import { TICKET_EVENT_QUEUE, type TicketEventJob, ticketOrderingKey } from '../jobs';
import {
  createDeliveryRate,
  DEFAULT_DELIVERY_LIMIT,
  type DeliveryLimit,
  type DeliveryRate,
  type Inbox,
} from '../ingest';
import { type Logger, logger as processLogger } from '../log';
import { answerAfterDurableWrite } from './answer-after-write';
import { sendError } from './app-error';
import { labelRequests } from './request-logging';
import { rawBodyOf, rawJsonBody } from './raw-json-body';
import { isTestDelivery } from './ticketing-test-delivery';
import { parseDelivery, type TicketingDelivery } from './ticketing-webhook-body';
import type { ZendeskWebhookDirectory } from '../accounts';
import { verifiedSender } from './ticketing-webhook-sender';
import { statementsFirst } from './statements-first';

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
  /** Told of each signed test delivery (ticketing-test-delivery.ts); never throttled. */
  recordTest?: (accountId: string, at: Date) => Promise<void>;
  /** Each account's deliveries per minute and burst (default DEFAULT_DELIVERY_LIMIT). */
  deliveryLimit?: DeliveryLimit;
}

export function ticketingWebhookRouter(options: TicketingWebhookOptions): Router {
  const router = express.Router();
  const logger = options.logger ?? processLogger;
  const now = options.now ?? (() => new Date());
  const rate = createDeliveryRate(options.deliveryLimit ?? DEFAULT_DELIVERY_LIMIT, () =>
    now().getTime(),
  );
  const check = {
    accounts: options.accounts,
    logger,
    ...(options.now ? { now: options.now } : {}),
    ...(options.toleranceSeconds === undefined
      ? {}
      : { toleranceSeconds: options.toleranceSeconds }),
  };

  router.post(
    '/ticketing/webhook',
    // a refused delivery's request line says so, with its reason and account
    labelRequests('ticketing webhook', 'zendesk'),
    ...rawJsonBody(options.bodyLimitBytes ?? 64 * 1024),
    statementsFirst(async (req, res) => {
      const rawBody = rawBodyOf(req.body);
      const account = await verifiedSender(req, res, rawBody, check);
      if (!account) return;
      // after the signature (an unsigned flood spends nothing), before the durable write
      if (!withinRate(res, rate, account.accountId)) return;
      if (isTestDelivery(rawBody)) {
        await (options.recordTest ?? options.recordDelivery)?.(account.accountId, now());
        res.status(200).json({ test: 'received' });
        return;
      }
      const delivery = parseDelivery(res, rawBody);
      if (!delivery) return;
      await answerAfterDurableWrite(
        res,
        () => acceptDelivery(options, logger, account.accountId, delivery),
        { logger, receiver: 'ticketing webhook', what: 'delivery' },
      );
    }),
  );
  return router;
}

/** Whether the account may have one more delivery stored; a 429 naming the limit otherwise. */
function withinRate(res: Response, rate: DeliveryRate, accountId: string): boolean {
  const allowance = rate.take(accountId);
  if (allowance.ok) return true;
  const { perMinute, burst } = rate.limit;
  sendError(
    res,
    'rate_limited',
    `this account's Zendesk deliveries are limited to ${perMinute} a minute (bursts of ${burst}); retry after ${allowance.retryAfterSeconds} s`,
    { retryAfterSeconds: allowance.retryAfterSeconds },
  );
  return false;
}

/** The delivery stored and its job enqueued, once. */
async function acceptDelivery(
  options: TicketingWebhookOptions,
  logger: Logger,
  accountId: string,
  { body, dedupeKey }: TicketingDelivery,
) {
  const job: TicketEventJob = {
    accountId,
    receivedAt: (options.now?.() ?? new Date()).toISOString(),
    via: 'trigger',
    body,
  };
  const outcome = await options.inbox.accept({
    source: 'zendesk',
    dedupeKey: `${accountId}:${dedupeKey}`,
    accountId,
    // the contract's identifiers only: whatever else a delivery carries is neither needed nor kept
    payload: body,
    job: {
      queue: TICKET_EVENT_QUEUE,
      data: job,
      singletonKey: ticketOrderingKey(accountId, body.ticketId),
    },
  });
  // Best effort, after the durable write: a stored delivery proves the webhook works, and
  // its health time is no reason to refuse or delay it.
  await options
    .recordDelivery?.(accountId, options.now?.() ?? new Date())
    .catch((error: unknown) => logger.warn('ticketing webhook: health not recorded', { error }));
  return outcome;
}
