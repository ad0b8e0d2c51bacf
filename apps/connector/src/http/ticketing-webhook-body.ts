// A Zendesk trigger delivery's body: a JSON object of the ticketing schema (identifiers only), and
// the key it is deduplicated on.
import { createHash } from 'node:crypto';
import type { Response } from 'express';
import { type TTicketingWebhookBody, ZTicketingWebhookBody } from '../jobs';
import { sendError } from './app-error';
import { parseJsonObject } from './raw-json-body';

export interface TicketingDelivery {
  body: TTicketingWebhookBody;
  dedupeKey: string;
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

/** The delivery read from its signed bytes, or null once its refusal is answered (400). */
export function parseDelivery(res: Response, rawBody: Buffer): TicketingDelivery | null {
  const json = parseJsonObject(rawBody);
  if (!json) {
    sendError(res, 'malformed_json', 'body is not a JSON object');
    return null;
  }
  const parsed = ZTicketingWebhookBody.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    sendError(
      res,
      'invalid_body',
      `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`,
    );
    return null;
  }
  const body = parsed.data;
  const dedupeKey = dedupeKeyOf(body, rawBody);
  if (!dedupeKey) {
    sendError(
      res,
      'missing_occurrence',
      'comment and action deliveries need updatedAt (or, for a comment, commentId)',
    );
    return null;
  }
  return { body, dedupeKey };
}
