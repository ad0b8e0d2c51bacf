// The job contracts: each queue's name, job schema and ordering key, and how a job is put off.
// The one door into jobs/: other folders import only what is exported here.
export {
  INCIDENT_EVENT_QUEUE,
  ZIncidentEventJob,
  incidentOrderingKey,
  type IncidentEventJob,
} from './incident-event-job';
export { incidentEventRef } from './incident-event-ref';
export { DEFAULT_RATE_LIMIT_DELAY_MS, JobDeferral, deferralOf } from './job-deferral';
export {
  TICKET_EVENT_QUEUE,
  ZTicketEventJob,
  ZTicketingWebhookBody,
  ticketOrderingKey,
  type TTicketingWebhookBody,
  type TicketEventJob,
} from './ticket-event-job';
export { TICKET_WRITE_QUEUE } from './ticket-write-queue';
