export { runSetup, type SetupInput } from './run-setup';
export type {
  IncidentSubscriptionSetup,
  SetupExisting,
  SetupFieldIds,
  SetupResult,
  StepReport,
  StoredIncidentSubscription,
  TSetupStep,
  TStepOutcome,
  ZendeskWebhookSetup,
} from './setup-result';
export { incidentWebhookUrl, subscriptionIdOf, ticketingWebhookUrl } from './connector-urls';
export {
  buildTriggerDefinitions,
  TAG_SUBMIT_MONITOR,
  TRIGGER_TITLE_PREFIX,
} from './trigger-definitions';
export { SETUP_TICKET_FIELDS } from './ensure-ticket-fields';
export {
  ACTION_NEEDED_VIEW_TITLE,
  APPROVALS_VIEW_TITLE,
  buildQueueViews,
  NEEDS_YOUR_ACTION_STATUSES,
} from './queue-views';
export { SUBSCRIBED_INCIDENT_EVENTS } from './ensure-incident-subscriptions';
