const SCHEME = /^([a-z][a-z0-9+.-]*):(\/\/)?/i;

/**
 * Makes an attacker-controlled URL, domain, email or IP unclickable and unmistakable as text:
 * `https://evil.example.com/a` becomes `hxxps[:]//evil[.]example[.]com/a`.
 * Idempotent, so an already defanged value is left as it is.
 */
export function defang(value: string): string {
  let out = value.trim();
  out = out.replace(SCHEME, (_match, scheme: string, slashes: string | undefined) => {
    const safeScheme = scheme.replace(/^http/i, (h) => (h[0] === 'H' ? 'HXXP' : 'hxxp'));
    return `${safeScheme}[:]${slashes ?? ''}`;
  });
  out = out.replace(/(?<!\[)\.(?!\])/g, '[.]');
  out = out.replace(/(?<!\[)@(?!\])/g, '[@]');
  return out;
}
