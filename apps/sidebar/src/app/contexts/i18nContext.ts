// The translations' context: what components read through useI18n, apart from the provider that
// loads them (which renders components itself).
import { createContext } from 'react';
import { createDateFormatters } from '../lib/dates';
import {
  createLookUp,
  createTranslator,
  english,
  type Dictionary,
  type LookUp,
  type Translate,
} from '../lib/i18n';

export interface I18nValue {
  /** Locale of the loaded strings (after fallback). */
  locale: string;
  /** The agent's own locale, used for dates. */
  agentLocale: string;
  timeZone: string | undefined;
  t: Translate;
  /** For keys built from values the app does not control: null when no translation has one. */
  lookUp: LookUp;
  formatDateTime: (iso: string | null | undefined) => string | null;
  formatDate: (value: string | null | undefined) => string | null;
}

export function createI18nValue(
  locale: string,
  dictionary: Dictionary,
  agentLocale: string,
  timeZone?: string,
): I18nValue {
  return {
    locale,
    agentLocale,
    timeZone,
    t: createTranslator(dictionary, locale, agentLocale),
    lookUp: createLookUp(dictionary, locale, agentLocale),
    ...createDateFormatters(agentLocale, timeZone),
  };
}

/**
 * English in the browser's zone: used by the screens shown before Zendesk answers (or when it
 * never does), so even those are translated strings, never hard-coded ones.
 */
export const I18nContext = createContext<I18nValue>(createI18nValue('en', english, 'en'));
