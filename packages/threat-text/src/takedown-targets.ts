// Which threats found in a ticket are worth offering for a takedown, and in which order. The agent
// is shown the best candidate first: a URL names the very page, a domain the site, an email
// address or a phone number one channel of the scam, an IP address a machine that may host many
// sites. Sites everyone names in passing are never a takedown target.
import type { TThreatKind } from './normalize-threat';

/**
 * Sites an end user names while reporting (their mail provider's help page, the search they ran,
 * the brand being impersonated, Zendesk itself) and that no incident service takes down. A small
 * fixed list, not a popularity ranking: each is a company's own site whose root page and company
 * addresses are never the threat. Free-mail domains (gmail.com, outlook.com, yahoo.com,
 * icloud.com) are deliberately absent: an address there is often the scammer's. A URL with a path
 * on one of these sites is still offered: forms, pages and files hosted there (a Google Form, a
 * shared OneDrive file) are taken down by their host.
 */
export const WELL_KNOWN_DOMAINS: readonly string[] = [
  'google.com',
  'youtube.com',
  'microsoft.com',
  'office.com',
  'apple.com',
  'amazon.com',
  'facebook.com',
  'instagram.com',
  'whatsapp.com',
  'linkedin.com',
  'x.com',
  'twitter.com',
  'paypal.com',
  'wikipedia.org',
  'zendesk.com',
];

const RANK: Record<TThreatKind, number> = { url: 0, domain: 1, email: 2, phone: 3, ipv4: 4 };

/** Best takedown candidate first (URLs, domains, emails, phones, IPs); first seen first within a kind. */
export function byTakedownRank<T extends { kind: TThreatKind }>(threats: readonly T[]): T[] {
  return threats
    .map((threat, index) => ({ threat, index }))
    .sort((a, b) => RANK[a.threat.kind] - RANK[b.threat.kind] || a.index - b.index)
    .map(({ threat }) => threat);
}

const within = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/**
 * Whether a found threat (normalised value) is one of the well-known sites themselves: the domain or
 * a subdomain, its root page, an address of the company, or a search engine's result page. Phones
 * and IPs never are.
 */
export function isWellKnownSite(
  threat: { kind: TThreatKind; value: string },
  domains: readonly string[] = WELL_KNOWN_DOMAINS,
): boolean {
  const { kind, value } = threat;
  if (kind === 'domain') return domains.some((domain) => within(value, domain));
  if (kind === 'email') {
    const host = value.slice(value.lastIndexOf('@') + 1);
    return domains.some((domain) => within(host, domain));
  }
  if (kind !== 'url') return false;
  const afterScheme = value.indexOf('://');
  const start = afterScheme === -1 ? 0 : afterScheme + 3;
  let end = start;
  while (end < value.length && !'/?#'.includes(value[end]!)) end += 1;
  const authority = value.slice(start, end);
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  const port = hostPort.lastIndexOf(':');
  const host = (port === -1 ? hostPort : hostPort.slice(0, port)).toLowerCase();
  const rest = value.slice(end);
  if (isSearchResultPage(host, rest)) return true;
  // only the site itself: a page, form or file hosted there is kept
  return (rest === '' || rest === '/') && domains.some((domain) => within(host, domain));
}

/**
 * Search engines' result pages (`google.com/search?q=…`, `bing.com/search`, DuckDuckGo's `/?q=`):
 * the search an end user ran to find the threat, never something a host takes down. A country's
 * Google (`google.fr`, `google.co.uk`) is Google's too.
 */
const SEARCH_RESULT_PAGES: readonly { host: RegExp; path: RegExp }[] = [
  {
    host: /^google\.(?:[a-z]{2,3}|co\.[a-z]{2}|com\.[a-z]{2})$/,
    path: /^\/(?:search|webhp)?(?:[?#]|$)/,
  },
  { host: /^bing\.com$/, path: /^\/search(?:[?#/]|$)/ },
  { host: /^duckduckgo\.com$/, path: /^\/(?:html\/?|lite\/?)?(?:[?#]|$)/ },
  { host: /^search\.yahoo\.com$/, path: /^\/search/ },
  { host: /^yandex\.(?:com|ru)$/, path: /^\/search/ },
  { host: /^baidu\.com$/, path: /^\/s(?:[?#]|$)/ },
  { host: /^ecosia\.org$/, path: /^\/search/ },
  { host: /^search\.brave\.com$/, path: /^\/search/ },
  { host: /^startpage\.com$/, path: /^\/(?:do\/)?search/ },
];

function isSearchResultPage(host: string, rest: string): boolean {
  const site = host.replace(/^www\./, '');
  return SEARCH_RESULT_PAGES.some((page) => page.host.test(site) && page.path.test(rest));
}
