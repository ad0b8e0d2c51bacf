// What the local sandboxes register, and the connector uses outside production when nothing else
// is configured.

/** What `npm run sandbox:zendesk` registers as its global OAuth client (local use only). */
export const SANDBOX_ZENDESK_CLIENT = {
  id: 'incident_desk_local',
  secret: 'incident-desk-local-secret',
};
/** The app id of the sidebar app the Zendesk sandbox's workspace installs (its folder app). */
export const SANDBOX_APP_ID = 1;
