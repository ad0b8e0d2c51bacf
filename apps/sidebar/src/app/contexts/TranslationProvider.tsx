import { createContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useClient } from '../hooks/useClient';
import {
  createLookUp,
  createTranslator,
  english,
  loadDictionary,
  type Dictionary,
  type LookUp,
  type Translate,
} from '../lib/i18n';
import { createDateFormatters, ianaTimeZone } from '../lib/dates';
import { LoadingSkeleton } from '../components/LoadingSkeleton';
import { getSessionFacts } from '../zaf/sessionFacts';

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

interface Props {
  children: ReactNode;
}

export function TranslationProvider({ children }: Props) {
  const client = useClient();
  const [value, setValue] = useState<I18nValue | null>(null);

  useEffect(() => {
    let active = true;
    getSessionFacts(client)
      .then((result) => result.currentUser as { locale?: string; timeZone?: unknown } | undefined)
      .catch(() => undefined)
      .then(async (user) => {
        const agentLocale = user?.locale ?? 'en';
        const { locale, dictionary } = await loadDictionary(agentLocale);
        if (!active) return;
        // The page's language is the strings' (after fallback), for screen readers and hyphenation.
        document.documentElement.lang = locale;
        setValue(createI18nValue(locale, dictionary, agentLocale, ianaTimeZone(user?.timeZone)));
      });
    return () => {
      active = false;
    };
  }, [client]);

  const memo = useMemo(() => value, [value]);
  if (!memo) return <LoadingSkeleton />;
  return <I18nContext.Provider value={memo}>{children}</I18nContext.Provider>;
}
