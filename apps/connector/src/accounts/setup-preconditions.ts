// What setup needs before it runs: a connected account, an active Zendesk token with setup's
// scopes (a client-credentials grant asks its own client for them, for this run only), and the
// incident service's key and client id. What is missing is what the admin page asks for.
import type { TDatabase } from '@incident-desk/db';
import type { SecretBox } from '../secrets';
import { disconnectionOf } from './account-disconnection';
import { connectWithClientCredentials } from './client-credentials';
import { hasScopes } from './scopes';
import { shortSetupReport, type SetupReport, type SetupState } from './setup-state';
import type { TZendeskOAuthConfig } from './zendesk-oauth-config';

export interface SetupAccount {
  zendeskSubdomain: string;
  disconnectedAt: Date | null;
  disconnectReason: string | null;
  disconnectDetail: string | null;
  zendeskCredential: { state: string; grant: string; scope: string } | null;
  configuration: { sealedIncidentApiKey: string | null; incidentClientId: string | null } | null;
}

export interface SetupBlocker {
  state: Extract<SetupState, 'needs_authorization' | 'needs_configuration'>;
  report: SetupReport;
}

/** Why setup cannot run now, or null once it can (setup's scopes in hand). */
export async function setupBlocker(
  deps: { db: TDatabase; secretBox: SecretBox; oauth: TZendeskOAuthConfig; fetch?: typeof fetch },
  account: SetupAccount,
  now: () => number,
): Promise<SetupBlocker | null> {
  const { db, secretBox, oauth } = deps;
  const disconnection = disconnectionOf(account);
  if (disconnection) {
    return {
      state: 'needs_authorization',
      report: shortSetupReport(
        { code: 'disconnected', reason: disconnection.reason },
        `incident-desk is disconnected from this Zendesk account (${disconnection.reason.replace(/_/g, ' ')}): install it again before setup can run.`,
        null,
      ),
    };
  }
  const credential = account.zendeskCredential;
  if (!credential || credential.state !== 'active') {
    return {
      state: 'needs_authorization',
      report: shortSetupReport(
        { code: 'reauthorization_required' },
        'Zendesk needs to be authorised again before setup can run.',
        null,
      ),
    };
  }
  const configuration = account.configuration;
  if (!configuration?.sealedIncidentApiKey || !configuration.incidentClientId) {
    return {
      state: 'needs_configuration',
      report: shortSetupReport(
        { code: 'needs_configuration' },
        'Save the incident API key and client id, then run setup.',
        credential.scope,
      ),
    };
  }
  if (credential.grant === 'client_credentials') {
    // The connector can ask its own client for the setup scopes, for this run only.
    await connectWithClientCredentials({
      db,
      secretBox,
      oauth: { ...oauth, scope: oauth.setupScope },
      subdomain: account.zendeskSubdomain,
      now,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
  } else if (!hasScopes(credential.scope, oauth.setupScope)) {
    return {
      state: 'needs_authorization',
      report: shortSetupReport(
        { code: 'needs_setup_scopes', granted: credential.scope, needed: oauth.setupScope },
        `The stored token has "${credential.scope}"; setup needs "${oauth.setupScope}". Authorise setup with Zendesk from this page.`,
        credential.scope,
      ),
    };
  }
  return null;
}
