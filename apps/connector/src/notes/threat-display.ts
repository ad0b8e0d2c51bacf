import { noteThreat } from './note-limits';
import type { NoteTexts } from './texts';

/** The generic threat of a ticket's subject and Threat field, which are not per language. */
export const GENERIC_THREAT = 'unknown threat';

export interface ThreatSource {
  url?: string | undefined;
  subject?: string | undefined;
  domain?: string | undefined;
}

/** The raw threat value of an incident: url, else subject, else domain; null when none is given. */
export function threatValue(source: ThreatSource): string | null {
  for (const value of [source.url, source.subject, source.domain]) {
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return null;
}

/** The threat as shown in a subject or a note: defanged, or the generic text (a note's in its language). */
export function displayThreat(source: ThreatSource, t?: NoteTexts): string {
  const value = threatValue(source);
  if (value === null) return t ? t.detected.genericThreat : GENERIC_THREAT;
  return noteThreat(value);
}
