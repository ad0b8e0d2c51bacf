// Accounts: each installed Zendesk account's context (clients, credentials, token renewal), its
// install and OAuth flows, its stored settings and state (a disconnection's mark too), and setup
// run as its job. The one door into accounts/: other folders import only what is exported here.
export {
  ZAccountSettingsUpdate,
  ZOwnDomains,
  loadSetupExisting,
  readAccountSettings,
  readOwnDomains,
  saveAccountSettings,
  saveIncidentConnection,
  saveOwnDomains,
  saveSetupResult,
} from './account-configuration';
export {
  createAccountContextProvider,
  type DatabaseAccountContextProvider,
} from './account-context-provider';
export {
  AccountUnavailableError,
  type AccountContext,
  type AccountContextProvider,
} from './account-context';
export {
  disconnectionOf,
  markAccountDisconnected,
  reconnectAccount,
} from './account-disconnection';
export { withAccountSetupLock } from './account-lock';
export { connectWithClientCredentials } from './client-credentials';
export { zendeskClientWithToken } from './fixed-token-client';
export { getConnectionStatus } from './credential-store';
export { escapeHtml, htmlPage, messagePage, subdomainField } from './html-page';
export { accountsRouter } from './install-router';
export { createInstallState } from './install-states';
export { redirectToAuthorization, subdomainOrForm } from './oauth-start';
export { setStateCookie } from './oauth-state-cookie';
export { OAuthGrantError, requestTokens, type IssuedTokens } from './oauth-token-endpoint';
export { oauthStartLimiter, pageSecurityHeaders } from './page-protection';
export { hasScopes, scopeSet } from './scopes';
export {
  ACCOUNT_SETUP_QUEUE,
  createSetupQueue,
  requestSetup,
  startSetupWorker,
  type SetupWorker,
} from './setup-job';
export { finishSetup, readSetupStatus, type SetupState, type SetupStatus } from './setup-state';
export {
  readSignedInUser,
  revokeToken,
  type SignedInUser,
  type ZendeskCallOptions,
} from './signed-in-user';
export {
  createIncidentSubscriptionDirectory,
  createZendeskWebhookDirectory,
  type IncidentSubscriptionDirectory,
  type ZendeskWebhookDirectory,
} from './webhook-secret-directories';
export { checkDeliveryAccount, holdsInstallationWebhook } from './zendesk-account-identity';
export {
  isTransientZendeskFailure,
  isUnansweredZendeskRequest,
  isZendeskAccessRefused,
  isZendeskFailure,
  isZendeskForbidden,
  isZendeskNotFound,
  isZendeskUnreachable,
  zendeskDeferralOf,
  zendeskDownloadFailure,
  zendeskRateLimitOf,
} from './zendesk-failures';
export {
  ADMIN_SIGN_IN_SCOPE,
  SETUP_SCOPES,
  STEADY_STATE_SCOPES,
  ZZendeskOAuthConfig,
  agentTicketUrls,
  zendeskBaseUrl,
  type TZendeskOAuthConfig,
} from './zendesk-oauth-config';
export {
  canTestZendeskWebhook,
  testZendeskWebhook,
  type ZendeskWebhookTest,
} from './zendesk-webhook-test';
// the connector's view of Zendesk, whole: zendesk-records.ts decides what it is
export * from './zendesk-records';
