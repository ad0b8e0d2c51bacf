// The incident's dashboard link from the report's answer. It is the service's own page, so notes
// keep it live for the agent to open; anything but a plain http(s) URL is dropped, never written.
const MAX_LENGTH = 2_048;

export function dashboardLink(url: string | undefined): string | null {
  if (url === undefined || url.length > MAX_LENGTH || /[\s\p{Cc}]/u.test(url)) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}
