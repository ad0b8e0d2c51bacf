// Setup: what the connector creates in an account's Zendesk (ticket fields, the Incident Status
// field, triggers and the tags they set, queue views, the webhook) and at the incident service
// (subscriptions). The one door into setup/: other folders import only what is exported here.
export { incidentWebhookUrl, subscriptionIdOf, ticketingWebhookUrl } from './connector-urls';
export { incidentSubscriptionDescription } from './ensure-incident-subscriptions';
export { ACTION_NEEDED_VIEW_TITLE, APPROVALS_VIEW_TITLE, buildQueueViews } from './queue-views';
export { removeZendeskSetup } from './remove-setup-objects';
export { runSetup, type SetupInput } from './run-setup';
export type { SetupExisting, SetupResult, StepReport } from './setup-result';
export { statusOptionValue } from './status-field';
export { stepErrorMessage } from './step-error';
export {
  ACTION_REQUEST_TAGS,
  DETECTED_TICKET_TAGS,
  SUBMIT_TAGS,
  TAG_LINKED,
  TAG_SUBMIT,
  TAG_UNLINKED,
} from './ticket-tags';
export { buildTriggerDefinitions, TAG_SUBMIT_MONITOR } from './trigger-definitions';
