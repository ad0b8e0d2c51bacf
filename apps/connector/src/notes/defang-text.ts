import { defang } from './defang';

// Free text from the incident service (analyst messages, action reasons) may quote the threat.
// Only link-like tokens are defanged so ordinary sentences keep their full stops.
const LINK_LIKE = /\b(?:[a-z][a-z0-9+.-]*:\/\/\S+|(?:[a-z0-9-]+\.)+[a-z]{2,}(?:[/:]\S*)?)/gi;

export function defangLinksIn(text: string): string {
  return text.replace(LINK_LIKE, (token) => defang(token));
}

/** Notes are plain text: drop control characters (except line breaks and tabs) a payload may carry. */
export function plainText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
}
