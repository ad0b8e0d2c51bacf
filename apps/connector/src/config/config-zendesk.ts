// The Zendesk side of the configuration: the OAuth client, the marketplace identity, the sidebar
// app's id, and where ticket attachments may be downloaded from.
import {
  checkAttachmentHosts,
  SETUP_SCOPES,
  STEADY_STATE_SCOPES,
  type TZendeskOAuthConfig,
  ZENDESK_ATTACHMENT_HOSTS,
  type ZendeskMarketplaceIdentity,
  ZZendeskOAuthConfig,
} from '../accounts';
import type { TEnv } from './config-env';
import { fail } from './config-error';
import { SANDBOX_APP_ID, SANDBOX_ZENDESK_CLIENT } from './config-sandbox';

export function marketplaceOf(env: TEnv): ZendeskMarketplaceIdentity | undefined {
  const {
    ZENDESK_MARKETPLACE_NAME: name,
    ZENDESK_MARKETPLACE_ORGANIZATION_ID: organizationId,
    ZENDESK_MARKETPLACE_APP_ID: appId,
  } = env;
  if (!name && !organizationId && !appId) return undefined;
  if (!name || !organizationId || !appId) {
    fail([
      'ZENDESK_MARKETPLACE_NAME, ZENDESK_MARKETPLACE_ORGANIZATION_ID, ZENDESK_MARKETPLACE_APP_ID: set all three or none',
    ]);
  }
  return { name, organizationId, appId };
}

/** ZENDESK_APP_ID, else the marketplace app id, else (outside production) the sandbox's app. */
export function sidebarAppIdOf(env: TEnv, production: boolean): number {
  if (env.ZENDESK_APP_ID !== undefined) return env.ZENDESK_APP_ID;
  const marketplaceId = Number(env.ZENDESK_MARKETPLACE_APP_ID);
  if (Number.isSafeInteger(marketplaceId) && marketplaceId > 0) return marketplaceId;
  if (production) fail(['ZENDESK_APP_ID: required when NODE_ENV=production']);
  return SANDBOX_APP_ID;
}

export function attachmentHostsOf(env: TEnv): string[] {
  if (env.ZENDESK_ATTACHMENT_HOSTS === undefined) return [...ZENDESK_ATTACHMENT_HOSTS];
  const hosts = env.ZENDESK_ATTACHMENT_HOSTS.split(',')
    .map((host) => host.trim())
    .filter((host) => host !== '');
  try {
    checkAttachmentHosts(hosts);
  } catch (error) {
    fail([`ZENDESK_ATTACHMENT_HOSTS: ${error instanceof Error ? error.message : String(error)}`]);
  }
  return hosts;
}

/** The OAuth client: the sandbox's outside production unless set; a bad value names its variable. */
export function oauthOf(
  env: TEnv,
  publicUrl: string,
  zendeskSandboxUrl: string,
  demoOn: boolean,
): TZendeskOAuthConfig {
  const oauthInput = {
    clientId: env.ZENDESK_CLIENT_ID ?? SANDBOX_ZENDESK_CLIENT.id,
    clientSecret: env.ZENDESK_CLIENT_SECRET ?? SANDBOX_ZENDESK_CLIENT.secret,
    redirectUri: env.ZENDESK_REDIRECT_URI ?? `${publicUrl}/oauth/callback`,
    baseUrlTemplate:
      env.ZENDESK_BASE_URL_TEMPLATE ??
      (demoOn ? `${zendeskSandboxUrl}/_z/{subdomain}` : 'https://{subdomain}.zendesk.com'),
    scope: env.ZENDESK_OAUTH_SCOPE ?? STEADY_STATE_SCOPES,
    setupScope: env.ZENDESK_OAUTH_SETUP_SCOPE ?? SETUP_SCOPES,
  };
  const oauth = ZZendeskOAuthConfig.safeParse(oauthInput);
  if (!oauth.success) {
    const names: Record<string, string> = {
      clientId: 'ZENDESK_CLIENT_ID',
      clientSecret: 'ZENDESK_CLIENT_SECRET',
      redirectUri: 'ZENDESK_REDIRECT_URI',
      baseUrlTemplate: 'ZENDESK_BASE_URL_TEMPLATE',
      scope: 'ZENDESK_OAUTH_SCOPE',
      setupScope: 'ZENDESK_OAUTH_SETUP_SCOPE',
    };
    fail(
      oauth.error.issues.map(
        (issue) => `${names[String(issue.path[0])] ?? String(issue.path[0])}: ${issue.message}`,
      ),
    );
  }
  return oauth.data;
}
