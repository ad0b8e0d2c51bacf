// Dead letters in words: what failed, why (an HTTP status named, not "500 ServiceUnavailable"),
// and what Retry will do. The raw reason stays available as detail.
import { ACCOUNT_SETUP_QUEUE } from '../accounts';
import { INCIDENT_EVENT_QUEUE, TICKET_EVENT_QUEUE, TICKET_WRITE_QUEUE } from '../jobs';

const STATUS_WORDS: Record<number, string> = {
  400: 'refused the request as invalid',
  401: 'refused the credentials',
  403: 'did not allow it',
  404: 'did not find it',
  409: 'reported a conflict',
  413: 'found it too large',
  422: 'refused the data',
  429: 'asked to slow down (rate limit)',
  500: 'had an internal error',
  502: 'was unreachable behind a gateway',
  503: 'was temporarily unavailable',
  504: 'did not answer in time',
};

/** A readable problem: "the incident service had an internal error (HTTP 500)". */
export function describeProblem(queue: string, reason: string): string {
  const service = /^(incidents?|webhooks|clients|usage|users)\.|Incident|incident/.test(reason)
    ? 'the incident service'
    : queue === INCIDENT_EVENT_QUEUE || queue === TICKET_WRITE_QUEUE
      ? 'Zendesk'
      : 'the other side';
  const status = /(?:^|[\s:(])([45]\d\d)(?=[\s:)]|$)/.exec(reason);
  if (status) {
    const code = Number(status[1]);
    const words =
      STATUS_WORDS[code] ?? (code >= 500 ? 'had a server error' : 'refused the request');
    return `${service.replace(/^./, (c) => c.toUpperCase())} ${words} (HTTP ${code}).`;
  }
  if (/timeout|timed out|no response within/i.test(reason))
    return `${service.replace(/^./, (c) => c.toUpperCase())} did not answer in time.`;
  if (/connection|ECONNREFUSED|fetch failed/i.test(reason))
    return `${service.replace(/^./, (c) => c.toUpperCase())} could not be reached.`;
  return reason ? `It stopped with: ${reason.slice(0, 200)}` : 'It failed without a reason.';
}

/** What the failed job was doing, in a sentence. */
export function describeWork(queue: string, kind: string | undefined): string {
  if (queue === TICKET_EVENT_QUEUE) {
    if (kind === 'report') return 'Reporting the ticket’s threat to the incident service failed.';
    if (kind === 'comment') return 'Forwarding the ticket’s new comments to the incident failed.';
    if (kind === 'action') return 'Sending the ticket’s action request to the incident failed.';
    return 'Sending a ticket change to the incident service failed.';
  }
  if (queue === INCIDENT_EVENT_QUEUE) return 'Applying an incident update to its ticket failed.';
  if (queue === TICKET_WRITE_QUEUE) return 'Writing the incident’s changes to the ticket failed.';
  if (queue === ACCOUNT_SETUP_QUEUE) return 'Setup of the account failed on every attempt.';
  return 'A background job failed.';
}

export function describeRetry(queue: string, kind: string | undefined): string {
  if (queue === TICKET_EVENT_QUEUE && kind === 'report')
    return 'Retry reads the ticket as it is now and reports its Threat if the ticket still asks for it, once; a refused Threat removed the submit tag, so correct the Threat and add the tag again instead. A report whose outcome is unknown is never sent twice.';
  if (queue === TICKET_EVENT_QUEUE)
    return 'Retry queues the ticket’s change again; comments already forwarded are not sent twice.';
  if (queue === INCIDENT_EVENT_QUEUE)
    return 'Retry applies the incident’s current state to the ticket again.';
  if (queue === ACCOUNT_SETUP_QUEUE) return 'Retry runs setup again.';
  if (queue === TICKET_WRITE_QUEUE)
    return 'Zendesk refused this change for good (closed or deleted ticket): it cannot be retried.';
  return 'Retry queues the job again.';
}

export const FORWARD_WORK = 'Forwarding a comment of the ticket to the incident failed.';
export const FORWARD_RETRY =
  'Retry forwards this comment again with the next comment run; nothing else is resent.';
