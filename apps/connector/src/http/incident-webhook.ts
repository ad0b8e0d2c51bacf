// POST /webhooks/incident: raw bytes -> timestamp and signature against every secret of the
// subscription the URL names -> JSON parse -> durable inbox write -> 2xx. Nothing else happens
// here: the worker applies the event later, so the incident service gets its answer in time.
import { createHash } from 'node:crypto';
import express, { type Router } from 'express';
import { verifyWebhook } from '@incident-desk/incident-api';
import type { Inbox } from '../ingest/inbox';
import { sendError, sendUnavailable } from './http-error';
import { parseJsonObject, rawBodyOf, rawJsonBody } from './raw-json-body';

export const INCIDENT_EVENT_QUEUE = 'incident-event';

export interface IncidentSubscriptionDirectory {
  /** The account and every secret now valid for the subscription; null when it is unknown. */
  find(subscriptionId: string): Promise<{ accountId: string; secrets: string[] } | null>;
}

export interface IncidentWebhookOptions {
  inbox: Inbox;
  subscriptions: IncidentSubscriptionDirectory;
  /** Default 256 KiB: events carry identifiers and short texts. */
  bodyLimitBytes?: number;
  toleranceSeconds?: number;
  now?: () => Date;
}

export interface IncidentEventJob {
  accountId: string;
  receivedAt: string;
  event: Record<string, unknown>;
}

export function incidentWebhookRouter(options: IncidentWebhookOptions): Router {
  const router = express.Router();
  const body = rawJsonBody(options.bodyLimitBytes ?? 256 * 1024);

  router.post('/webhooks/incident', ...body, async (req, res) => {
    const subscriptionId = typeof req.query.subscription === 'string' ? req.query.subscription : '';
    let subscription: Awaited<ReturnType<typeof options.subscriptions.find>>;
    try {
      subscription = subscriptionId ? await options.subscriptions.find(subscriptionId) : null;
    } catch (error) {
      console.error('incident webhook: subscription lookup failed:', error);
      return sendUnavailable(res, 'could not read the subscription; retry later');
    }
    if (!subscription) {
      return sendError(res, 401, 'unknown_subscription', 'no subscription matches this address');
    }
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
      const unauthorised =
        verification.reason === 'missing_headers' || verification.reason === 'bad_signature';
      return sendError(res, unauthorised ? 401 : 400, verification.reason, verification.message);
    }

    const envelope = parseJsonObject(rawBody);
    if (!envelope) return sendError(res, 400, 'malformed_json', 'body is not a JSON object');
    if (typeof envelope.event !== 'string') {
      return sendError(res, 400, 'malformed_event', 'body must carry a string "event"');
    }
    const eventId = typeof envelope.id === 'string' && envelope.id !== '' ? envelope.id : null;
    const dedupeKey = `${subscription.accountId}:${eventId ?? `sha256:${createHash('sha256').update(rawBody).digest('hex')}`}`;
    const data = envelope.data as { incidentId?: unknown } | undefined;
    const incidentId = typeof data?.incidentId === 'string' ? data.incidentId : null;
    const job: IncidentEventJob = {
      accountId: subscription.accountId,
      receivedAt: (options.now?.() ?? new Date()).toISOString(),
      event: envelope,
    };

    try {
      const outcome = await options.inbox.accept({
        source: 'incident',
        dedupeKey,
        accountId: subscription.accountId,
        payload: envelope,
        job: {
          queue: INCIDENT_EVENT_QUEUE,
          data: job,
          singletonKey: `${subscription.accountId}:${incidentId ?? 'no-incident'}`,
        },
      });
      res.status(200).json({ status: outcome.status });
    } catch (error) {
      console.error('incident webhook: durable write failed:', error);
      sendUnavailable(res, 'could not store the event; retry later');
    }
  });
  return router;
}
