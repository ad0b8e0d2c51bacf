/**
 * A partner's listing page may be shown as a live link; anything else (a non-http scheme,
 * or a page on the incident's own host, which the attacker controls) is shown defanged.
 */
export function partnerLinkHref(link: string, attackerHosts: readonly string[]): string | null {
  let parsed: URL;
  try {
    parsed = new URL(link);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  const host = parsed.hostname.toLowerCase();
  const hostile = attackerHosts.some((h) => {
    const bad = h.toLowerCase();
    return bad !== '' && (host === bad || host.endsWith(`.${bad}`));
  });
  return hostile ? null : parsed.href;
}

/** Hosts of the incident's subject, url and domain, to recognise links that point at the threat. */
export function hostsOf(values: readonly (string | undefined)[]): string[] {
  const hosts: string[] = [];
  for (const value of values) {
    if (!value) continue;
    try {
      hosts.push(new URL(value.includes('://') ? value : `http://${value}`).hostname);
    } catch {
      // not a URL-like value (phone, email): nothing to compare against
    }
  }
  return hosts;
}
