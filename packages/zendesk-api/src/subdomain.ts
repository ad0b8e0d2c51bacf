// A Zendesk subdomain as an admin types or pastes it. Shared by the connector and the admin page
// (a browser bundle: this module imports nothing).
const SUBDOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const ZENDESK_HOST = /^([a-z0-9-]+)\.zendesk\.com$/;

/** Lower-cased subdomain, or null when it is not one. */
export function normalizeSubdomain(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const subdomain = value.trim().toLowerCase();
  return SUBDOMAIN.test(subdomain) ? subdomain : null;
}

/**
 * What an admin typed or pasted as the subdomain: `acme`, `acme.zendesk.com` or a Zendesk address
 * such as `https://acme.zendesk.com/agent` all give `acme`; anything else is null.
 */
export function subdomainFromInput(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim().toLowerCase();
  if (!/[./:]/.test(text)) return normalizeSubdomain(text);
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//.test(text) ? text : `https://${text}`).hostname;
  } catch {
    return null;
  }
  const match = ZENDESK_HOST.exec(host);
  return match ? normalizeSubdomain(match[1]) : null;
}
