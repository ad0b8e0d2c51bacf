// The contract of an incident event job: what the incident receiver enqueues and the worker runs.
// The event itself stays raw here; sync/incident-events/parse-incident-event.ts reads it with the
// incident client's tolerant schema.
import { z } from 'zod';

export const INCIDENT_EVENT_QUEUE = 'incident-event';

export const ZIncidentEventJob = z.object({
  accountId: z.string().min(1),
  receivedAt: z.string(),
  /** The receiver id of the subscription it came through (per client); absent on older jobs. */
  subscriptionId: z.string().optional(),
  /** The id of the request that enqueued it (added by the inbox), on the job's log lines. */
  requestId: z.string().optional(),
  event: z.record(z.string(), z.unknown()),
});
export type IncidentEventJob = z.infer<typeof ZIncidentEventJob>;

/**
 * The events of one incident run one at a time, in arrival order, on any instance: that is what
 * keeps two instances from opening two tickets for one new incident.
 */
export function incidentOrderingKey(accountId: string, incidentId: string | null): string {
  return `${accountId}:${incidentId ?? 'no-incident'}`;
}
