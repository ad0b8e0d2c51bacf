import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useClient } from '../hooks/useClient';
import { loadDictionary } from '../lib/i18n';
import { ianaTimeZone } from '../lib/dates';
import { createI18nValue, I18nContext, type I18nValue } from './i18nContext';
import { LoadingSkeleton } from '../components/LoadingSkeleton';
import { getSessionFacts } from '../zaf/sessionFacts';

export type { I18nValue } from './i18nContext';

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
  // Nothing in any language before the locale is known: the first words are the agent's.
  if (!memo) return <LoadingSkeleton neutral />;
  return <I18nContext.Provider value={memo}>{children}</I18nContext.Provider>;
}
