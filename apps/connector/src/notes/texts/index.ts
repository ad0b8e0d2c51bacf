import { EN } from './en';
import { FR } from './fr';
import type { NoteLocale, NoteTexts } from './note-texts';

export type { NoteLocale, NoteTexts } from './note-texts';

const TEXTS: Record<NoteLocale, NoteTexts> = { en: EN, fr: FR };

export function noteTexts(locale: NoteLocale): NoteTexts {
  return TEXTS[locale];
}

/** The notes' language for a Zendesk locale (`fr`, `fr-ca`, `en-US`...): French or English. */
export function noteLocaleOf(zendeskLocale: string | null | undefined): NoteLocale {
  return zendeskLocale?.trim().toLowerCase().split(/[-_]/)[0] === 'fr' ? 'fr' : 'en';
}

/** A status as the sidebar names it in that language, or the raw value for one it does not know. */
export function statusLabelIn(texts: NoteTexts, status: string): string {
  return Object.hasOwn(texts.status.labels, status) ? texts.status.labels[status]! : status;
}

export function statusMeaningIn(texts: NoteTexts, status: string): string | undefined {
  return Object.hasOwn(texts.status.meanings, status) ? texts.status.meanings[status] : undefined;
}
