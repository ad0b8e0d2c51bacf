// The worker's handler for one queued incident event (IncidentEventJob). Throws only for
// transient failures (the queue retries); everything else ends in an outcome.
//
// Decisions where the contract leaves a choice:
// - Ordering: a status event older than the last applied status (TicketSyncState.lastStatusAt)
//   still gets a history note saying so, but never touches the Status field; an event older than
//   the last one that touched the ticket status (lastEventAt) neither solves nor reopens it, so an
//   older action_required notes the reason without reopening. The envelope timestamp orders
//   events; without one, the receive time does.
// - Idempotency: an event's change is recorded once per ticket (pending_ticket_change, keyed on
//   the event's ref, the receiver's dedupe key too: jobs/incident-event-ref.ts), and the
//   account's writer applies it once: the write's audit metadata names its reference and the
//   events it carries, so a retry after a crash, a 5xx or a timeout finds whether Zendesk
//   committed it (sync/ticket-writes/).
// - incident.created for a linked ticket is a no-op (the reporter already knows it).
// - A history entry of an incident the connector is calling on an agent's behalf waits for that
//   call to settle (sync/echo-ledger); past the wait the job is retried.
// - Unlinked incidents: wait, recheck, recovery search, then (when the account wants it) open a
//   ticket under an exclusive claim (incident_ticket_claim), so concurrent workers open one ticket. The
//   first note is built from the incident detail, which covers incident.created and status_changed;
//   any other event that opened the ticket (an action_required's reason, a history message, a
//   takedown update) is then applied to it as to any linked ticket.
import type { AccountContext } from '../../accounts';
import type { IncidentEventJob } from '../../jobs';
import type { SyncOutcome } from '../../worker';
import { recordIncidentEventHealth } from './account-health';
import { applyLinkedEvent } from './apply-linked-event';
import { resolveSyncDeps, type SyncDeps } from '../sync-deps';
import { firstNoteCovers } from './open-detected-ticket';
import { parseIncidentEvent } from './parse-incident-event';
import { resolveTicket } from './resolve-ticket';
import { isPermanentFailure } from '../service-failure';

export async function handleIncidentEvent(
  deps: SyncDeps,
  ctx: AccountContext,
  job: IncidentEventJob,
): Promise<SyncOutcome> {
  const resolved = resolveSyncDeps(deps);
  const parsed = parseIncidentEvent(job.event, job.receivedAt);
  const isTest = parsed.ok && parsed.event.name === 'webhook.test';
  await recordIncidentEventHealth(resolved.db, ctx.accountId, resolved.now(), isTest, {
    subscriptionId: job.subscriptionId,
    clientId: parsed.ok ? parsed.event.clientId : undefined,
  });

  if (!parsed.ok) {
    // The receipt (webhook_receipt) keeps the payload; the outcome says why nothing happened.
    return parsed.reason === 'unknown_event'
      ? { status: 'skipped', reason: `unknown event ${parsed.name}` }
      : { status: 'failed_permanently', reason: `malformed event: ${parsed.detail}` };
  }
  const event = parsed.event;
  if (event.name === 'webhook.test') return { status: 'applied', detail: 'webhook test recorded' };

  try {
    const target = await resolveTicket(resolved, ctx, event);
    if (target.kind === 'ignored') {
      return {
        status: 'skipped',
        reason: `incident ${event.incidentId} has no ticket; the account tracks ticket reports only`,
      };
    }
    if (target.kind === 'opened') {
      const opened = {
        status: 'applied' as const,
        detail: `opened ticket ${target.link.ticketId}`,
      };
      if (firstNoteCovers(event)) return opened;
      await applyLinkedEvent(resolved, ctx, event, target.link);
      return opened;
    }
    return await applyLinkedEvent(resolved, ctx, event, target.link);
  } catch (error) {
    if (isPermanentFailure(error)) {
      return {
        status: 'failed_permanently',
        reason: error instanceof Error ? error.message : String(error),
      };
    }
    throw error;
  }
}
