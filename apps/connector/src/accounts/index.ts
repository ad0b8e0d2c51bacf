export * from './account-context';
export {
  createAccountContextProvider,
  type AccountContextProviderConfig,
} from './account-context-provider';
export {
  DEFAULT_ACCOUNT_SETTINGS,
  ensureAccountConfiguration,
  loadSetupExisting,
  readAccountSettings,
  saveAccountSettings,
  saveIncidentConnection,
  saveSetupResult,
  ZAccountSettingsUpdate,
  ZIncidentConnection,
  type TAccountSettingsUpdate,
  type TIncidentConnection,
} from './account-configuration';
export { withAccountLock } from './account-lock';
export { connectWithClientCredentials } from './client-credentials';
export {
  findOrCreateAccount,
  getConnectionStatus,
  markReauthorizationRequired,
  type ConnectionStatus,
} from './credential-store';
export { accountsRouter } from './install-router';
export type { AccountsRouterOptions } from './install-options';
export { OAuthGrantError } from './oauth-token-endpoint';
export {
  createIncidentSubscriptionDirectory,
  createZendeskWebhookDirectory,
} from './webhook-secret-directories';
export * from './zendesk-oauth-config';
export { createZendeskTokenProvider, REFRESH_SKEW_MS } from './zendesk-token-provider';
