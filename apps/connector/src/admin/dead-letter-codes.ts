// Dead letters in codes: what failed (the work), why (an HTTP status, a timeout, no connection, or
// the raw reason) and, through the work, what Retry does. The admin page words them in the admin's
// language; the raw reason stays available as detail.
import type { TFailedWork, TFailureParty, TFailureProblem } from '@incident-desk/admin-contract';
import { ACCOUNT_SETUP_QUEUE } from '../accounts';
import { INCIDENT_EVENT_QUEUE, TICKET_EVENT_QUEUE, TICKET_WRITE_QUEUE } from '../jobs';

function partyOf(queue: string, reason: string): TFailureParty {
  if (/^(incidents?|webhooks|clients|usage|users)\.|Incident|incident/.test(reason))
    return 'incident_service';
  return queue === INCIDENT_EVENT_QUEUE || queue === TICKET_WRITE_QUEUE ? 'zendesk' : 'other_side';
}

/** Why it failed: "the incident service had an internal error (HTTP 500)" as codes. */
export function problemOf(queue: string, reason: string): TFailureProblem {
  const party = partyOf(queue, reason);
  const status = /(?:^|[\s:(])([45]\d\d)(?=[\s:)]|$)/.exec(reason);
  if (status) return { code: 'http_status', party, status: Number(status[1]) };
  if (/timeout|timed out|no response within/i.test(reason)) return { code: 'timeout', party };
  if (/connection|ECONNREFUSED|fetch failed/i.test(reason)) return { code: 'unreachable', party };
  return reason ? { code: 'stopped_with', reason: reason.slice(0, 200) } : { code: 'no_reason' };
}

/** What the failed job was doing. */
export function workOf(queue: string, kind: string | undefined): TFailedWork {
  if (queue === TICKET_EVENT_QUEUE) {
    if (kind === 'report') return 'ticket_report';
    if (kind === 'comment') return 'ticket_comments';
    if (kind === 'action') return 'ticket_action';
    return 'ticket_change';
  }
  if (queue === INCIDENT_EVENT_QUEUE) return 'incident_update';
  if (queue === TICKET_WRITE_QUEUE) return 'ticket_write';
  if (queue === ACCOUNT_SETUP_QUEUE) return 'account_setup';
  return 'background_job';
}
