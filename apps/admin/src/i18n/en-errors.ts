// English for the connector's refusals of an admin action, by their error code (the connector's
// apps/connector/src/http/app-error.ts), with the facts some answers carry.
export const errorMessages = {
  actionError: {
    code: {
      api_key_refused:
        'The incident service refused this API key. Check that it was copied whole and is still active; nothing was saved.',
      incident_unreachable:
        'The incident service could not be reached to check the key; nothing was saved. Try again.',
      incident_check_failed:
        'The incident service could not check the key; nothing was saved. Try again.',
      client_not_covered: 'This API key does not cover every client named; nothing was saved.',
      api_key_required: 'The incident API key is not set yet.',
      no_incident_service: 'No incident service is configured for this connector.',
      invalid_connection: 'The client ids were not accepted; check them and save again.',
      invalid_settings: 'The settings were not accepted; check the values and save again.',
      invalid_own_domains: 'The domains were not accepted; check them and save again.',
      invalid_body: 'The request was not accepted; reload the page and try again.',
      no_subscription: 'There is no incident-service subscription yet: run setup first.',
      not_found: 'It is no longer there: reload the page.',
      conflict: 'The job cannot be queued again now; try later.',
      invalid_incident_id: 'That is not an incident id.',
      unknown_incident: 'The incident service knows no such incident for this account.',
      already_linked: 'That ticket or that incident is already linked.',
      in_progress: 'Something is still running for this account: try again once it has finished.',
      authorization_needed: 'Setup needs a wider Zendesk permission: authorise it with Zendesk.',
      reauthorization_required:
        'Zendesk no longer accepts incident-desk’s authorisation: reconnect Zendesk to continue.',
      unknown_account: 'This account is not connected to incident-desk.',
      not_configured: 'The incident API key is not saved yet.',
      disconnected: 'incident-desk is disconnected from this Zendesk account.',
      ticket_not_found: 'Zendesk no longer has this ticket.',
      zendesk_unavailable: 'Zendesk could not be reached or answered with an error; try again.',
      not_signed_in: 'Sign in with Zendesk first.',
      not_admin: 'You are no longer a Zendesk admin of this account.',
      role_unconfirmed: 'Zendesk could not confirm your role; sign in again.',
      csrf: 'The page’s session changed; reload the page and try again.',
    } as Record<string, string>,
    clientNotCovered: (missing: string, covered: string) =>
      `This API key does not cover ${missing}; it covers ${covered}. Nothing was saved.`,
    noClient: 'no client',
    /** retry_later (the incident service) and zendesk_limited (Zendesk), with their wait. */
    incidentServiceBusy: (seconds: number) =>
      `The incident service is limiting requests: try again in ${seconds} s.`,
    zendeskBusy: (seconds: number) =>
      `Zendesk is limiting ticket updates for this account: try again in ${seconds} s.`,
    busyShortly: 'Too many requests just now: try again shortly.',
    /** A code this page does not know yet (a newer connector). */
    unknown: (status: number) => `The connector refused the action (HTTP ${status}).`,
  },
};
