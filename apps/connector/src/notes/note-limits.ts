// Length caps of what the connector writes into a note: attacker-controlled values can
// be megabytes (a page title, a registrar, an analyst message), and a note is read by an agent.
// Each value is cut before it is defanged (so the cut never breaks a `[.]`), and a cut ends with
// "…". (What identifies a write, its reference and events, is in its audit metadata, not in the note.)
import { cutToLength, defang, defangLinksIn, plainText } from '@incident-desk/threat-text';

/** A single value: the threat, a domain, a registrar, a page title, a status, a listing's link. */
export const NOTE_FIELD_MAX_CHARS = 500;
/** Free text: an analyst's history message, a `waitForClient` reason. */
export const NOTE_MESSAGE_MAX_CHARS = 5_000;
/** A whole note. Zendesk takes far longer comments; an agent reads this much. */
export const NOTE_BODY_MAX_CHARS = 20_000;

function cleaned(value: string, maxChars: number): string {
  return cutToLength(plainText(value).trim(), maxChars);
}

/** A free-text value for a note: plain, cut, its link-like tokens defanged. */
export function noteText(value: string, maxChars = NOTE_FIELD_MAX_CHARS): string {
  return defangLinksIn(cleaned(value, maxChars));
}

/** A value known to be a threat (URL, domain, email, IP) for a note: plain, cut, defanged. */
export function noteThreat(value: string): string {
  return defang(cleaned(value, NOTE_FIELD_MAX_CHARS));
}

/** A value shown as it is (a status name): plain and cut. */
export function notePlain(value: string): string {
  return cleaned(value, NOTE_FIELD_MAX_CHARS);
}

/** The body of a note, cut to its cap. */
export function capNoteBody(body: string): string {
  return cutToLength(body, NOTE_BODY_MAX_CHARS);
}
