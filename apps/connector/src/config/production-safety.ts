// What production refuses to start with, each named by its setting: addresses that would carry
// tokens, keys or cookies in clear (an http public URL also loses the Secure cookie and its
// __Host- name), a sealing key anyone could guess, and the Zendesk sandbox's published OAuth
// client. A lab that runs production mode on plain addresses says so with ALLOW_INSECURE_LAB=true.
import { parseSecretKeys } from '../secrets';

export interface ProductionSettings {
  CONNECTOR_PUBLIC_URL?: string | undefined;
  ZENDESK_BASE_URL_TEMPLATE?: string | undefined;
  ZENDESK_REDIRECT_URI?: string | undefined;
  INCIDENT_API_URL?: string | undefined;
  SECRETS_KEYS?: string | undefined;
  ZENDESK_CLIENT_ID?: string | undefined;
  ZENDESK_CLIENT_SECRET?: string | undefined;
}

/** The OAuth client the Zendesk sandbox registers, published in this repository. */
export interface PublishedClient {
  id: string;
  secret: string;
}

const ESCAPE = 'ALLOW_INSECURE_LAB=true lets a lab start anyway';

function isHttps(url: string | undefined): boolean {
  if (url === undefined) return true;
  try {
    // the template's {subdomain} is no valid host: read it with a stand-in
    return new URL(url.replace('{subdomain}', 'account')).protocol === 'https:';
  } catch {
    return false;
  }
}

/** A key whose bytes are all one value (all zero, say): a placeholder, not a secret. */
function isGuessable(key: Uint8Array): boolean {
  return key.every((byte) => byte === key[0]);
}

/** One line per unsafe setting; empty when production may start. */
export function unsafeProductionSettings(
  env: ProductionSettings,
  published: PublishedClient,
): string[] {
  const problems: string[] = [];
  const cleartext = [
    'CONNECTOR_PUBLIC_URL',
    'ZENDESK_BASE_URL_TEMPLATE',
    'ZENDESK_REDIRECT_URI',
    'INCIDENT_API_URL',
  ] as const;
  for (const name of cleartext) {
    if (!isHttps(env[name])) {
      problems.push(
        `${name}: must be https in production (credentials would travel in clear); ${ESCAPE}`,
      );
    }
  }
  if (env.SECRETS_KEYS) {
    try {
      for (const { id, key } of parseSecretKeys(env.SECRETS_KEYS)) {
        if (isGuessable(key)) {
          problems.push(
            `SECRETS_KEYS: key ${id} is one byte repeated, not a secret (openssl rand -base64 32)`,
          );
        }
      }
    } catch {
      // malformed keys are refused, with their reason, where the keys are read
    }
  }
  if (env.ZENDESK_CLIENT_SECRET === published.secret || env.ZENDESK_CLIENT_ID === published.id) {
    problems.push(
      "ZENDESK_CLIENT_ID, ZENDESK_CLIENT_SECRET: the Zendesk sandbox's published local client; register your own global OAuth client",
    );
  }
  return problems;
}
