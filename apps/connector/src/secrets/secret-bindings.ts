// Where each sealed value lives: the binding secret-box seals it with and checks on open. A value
// is bound to its table and column and to its account (and, for an incident subscription, to the
// client it subscribes for). The current and previous secret of a subscription share a binding:
// a rotation moves the current value into the previous column as it is.
export const secretBinding = {
  zendeskAccessToken: (accountId: string) => `zendesk_credential.sealed_access_token:${accountId}`,
  zendeskRefreshToken: (accountId: string) =>
    `zendesk_credential.sealed_refresh_token:${accountId}`,
  zendeskRemovalToken: (accountId: string) =>
    `zendesk_credential.sealed_removal_token:${accountId}`,
  incidentApiKey: (accountId: string) =>
    `account_configuration.sealed_incident_api_key:${accountId}`,
  zendeskWebhookSecret: (accountId: string) =>
    `account_configuration.sealed_zendesk_webhook_secret:${accountId}`,
  incidentSubscriptionSecret: (accountId: string, clientId: string) =>
    `incident_subscription.secret:${accountId}:${clientId}`,
} as const;
