// How the connector reaches Zendesk's OAuth endpoints: one global client (marketplace) or a local
// confidential client, and the base URL of each account from a template, so the sandbox
// (`http://localhost:8789/_z/{subdomain}`) and production (`https://{subdomain}.zendesk.com`)
// differ only in configuration.
import { normalizeSubdomain } from '@incident-desk/zendesk-api';
import { z } from 'zod';

/**
 * What the connector needs once set up, nothing broader: no global `read`, so a write is found by
 * its note's identity rather than by its audit (the Ticket Audits API accepts nothing narrower than
 * `read`; sync/ticket-writes/note-identity.ts). An operator may add `read` through
 * ZENDESK_OAUTH_SCOPE, at the price of a token that reads the whole account.
 */
export const STEADY_STATE_SCOPES = 'tickets:read tickets:write users:read apps:read';
/** Setup creates fields (plain `write`), webhooks and triggers: see src/setup/SCOPES.md. */
export const SETUP_SCOPES = 'read write';
/**
 * Admin sign-in reads who signed in (users/me) and whether their account holds the installation's
 * webhook (the account is the installed one, zendesk-account-identity.ts).
 */
export const ADMIN_SIGN_IN_SCOPE = 'users:read webhooks:read';
const ACCESS_TOKEN_EXPIRES_IN_SECONDS = 86_400;
const REFRESH_TOKEN_EXPIRES_IN_SECONDS = 7_776_000;

export const ZZendeskOAuthConfig = z.object({
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  /** Exactly the URI registered with the client; HTTPS except on localhost. */
  redirectUri: z.string().refine(isAcceptableRedirectUri, {
    message:
      'redirect URI must be an absolute HTTPS URL (HTTP only for localhost), without fragment',
  }),
  /** e.g. `https://{subdomain}.zendesk.com`. */
  baseUrlTemplate: z.string().includes('{subdomain}'),
  /** Steady-state scopes: what the token is narrowed to once setup has run. */
  scope: z.string().min(1).default(STEADY_STATE_SCOPES),
  /** Requested at install (and for a rerun of setup); narrowed to `scope` after setup. */
  setupScope: z.string().min(1).default(SETUP_SCOPES),
  accessTokenExpiresIn: z
    .number()
    .int()
    .min(300)
    .max(172_800)
    .default(ACCESS_TOKEN_EXPIRES_IN_SECONDS),
  refreshTokenExpiresIn: z
    .number()
    .int()
    .min(604_800)
    .max(7_776_000)
    .default(REFRESH_TOKEN_EXPIRES_IN_SECONDS),
  /** Per token request; the authorization code is only valid for 120 s anyway. */
  tokenRequestTimeoutMs: z.number().int().positive().default(30_000),
});
export type TZendeskOAuthConfig = z.infer<typeof ZZendeskOAuthConfig>;

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isAcceptableRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname);
}

export function zendeskBaseUrl(template: string, subdomain: string): string {
  const normalized = normalizeSubdomain(subdomain);
  if (!normalized) throw new Error(`not a Zendesk subdomain: ${JSON.stringify(subdomain)}`);
  return template.replace('{subdomain}', normalized).replace(/\/+$/, '');
}

/** The address of a ticket's page in the account's agent workspace, per ticket id. */
export function agentTicketUrls(template: string, subdomain: string): (ticketId: number) => string {
  const base = `${zendeskBaseUrl(template, subdomain)}/agent/tickets/`;
  return (ticketId) => `${base}${ticketId}`;
}
