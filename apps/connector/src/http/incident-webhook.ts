// POST /webhooks/incident: raw bytes -> timestamp and signature against every secret of the
// subscription the URL names -> JSON parse -> durable inbox write -> 2xx. Nothing else happens
// here: the worker applies the event later, so the incident service gets its answer in time.
import express, { type Router } from 'express';
import { verifyWebhook, ZWebhookEnvelope } from '@incident-desk/incident-api';
import type { IncidentSubscriptionDirectory } from '../accounts';
import type { Inbox } from '../ingest';
import {
  INCIDENT_EVENT_QUEUE,
  type IncidentEventJob,
  incidentEventRef,
  incidentOrderingKey,
} from '../jobs';
import { type Logger, logger as processLogger } from '../log';
import { sendError, sendUnavailable } from './app-error';
import { answerAfterDurableWrite } from './answer-after-write';
import { labelRequests } from './request-logging';
import { parseJsonObject, rawBodyOf, rawJsonBody } from './raw-json-body';
import { statementsFirst } from './statements-first';

export interface IncidentWebhookOptions {
  inbox: Inbox;
  subscriptions: IncidentSubscriptionDirectory;
  /** Default 256 KiB: events carry identifiers and short texts. */
  bodyLimitBytes?: number;
  toleranceSeconds?: number;
  now?: () => Date;
  logger?: Logger;
}

export function incidentWebhookRouter(options: IncidentWebhookOptions): Router {
  const router = express.Router();
  const body = rawJsonBody(options.bodyLimitBytes ?? 256 * 1024);
  const logger = options.logger ?? processLogger;
  // a refused delivery's request line says so, with its reason and account
  const refusals = labelRequests('incident webhook', 'incident');

  router.post(
    '/webhooks/incident',
    refusals,
    ...body,
    statementsFirst(async (req, res) => {
      const subscriptionId =
        typeof req.query.subscription === 'string' ? req.query.subscription : '';
      let subscription: Awaited<ReturnType<typeof options.subscriptions.find>>;
      try {
        subscription = subscriptionId ? await options.subscriptions.find(subscriptionId) : null;
      } catch (error) {
        logger.error('incident webhook: subscription lookup failed', { error });
        return sendUnavailable(res, 'could not read the subscription; retry later');
      }
      if (!subscription) {
        return sendError(res, 'unknown_subscription', 'no subscription matches this address');
      }
      res.locals.accountId = subscription.accountId;
      const rawBody = rawBodyOf(req.body);
      const verification = verifyWebhook({
        secrets: subscription.secrets,
        rawBody,
        headers: req.headers,
        ...(options.now ? { now: options.now() } : {}),
        ...(options.toleranceSeconds === undefined
          ? {}
          : { toleranceSeconds: options.toleranceSeconds }),
      });
      if (!verification.ok) {
        // a missing or wrong signature is 401, a bad timestamp 400 (the table)
        return sendError(res, verification.reason, verification.message);
      }

      const envelope = parseJsonObject(rawBody);
      if (!envelope) return sendError(res, 'malformed_json', 'body is not a JSON object');
      // the client package's tolerant envelope: only the event name is required here
      if (!ZWebhookEnvelope.safeParse(envelope).success) {
        return sendError(res, 'malformed_event', 'body must carry a string "event"');
      }
      const data = envelope.data as { incidentId?: unknown } | undefined;
      const incidentId = typeof data?.incidentId === 'string' ? data.incidentId : null;
      const job: IncidentEventJob = {
        accountId: subscription.accountId,
        receivedAt: (options.now?.() ?? new Date()).toISOString(),
        subscriptionId,
        event: envelope,
      };

      await answerAfterDurableWrite(
        res,
        () =>
          options.inbox.accept({
            source: 'incident',
            // the event's ref, as its job reads it (within the write: a body too deep is refused)
            dedupeKey: `${subscription.accountId}:${incidentEventRef(envelope)}`,
            accountId: subscription.accountId,
            payload: envelope,
            rawBody,
            job: {
              queue: INCIDENT_EVENT_QUEUE,
              data: job,
              singletonKey: incidentOrderingKey(subscription.accountId, incidentId),
            },
          }),
        { logger, receiver: 'incident webhook', what: 'event' },
      );
    }),
  );
  return router;
}
