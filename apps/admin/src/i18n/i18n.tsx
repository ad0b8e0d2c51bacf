// The admin page's language: the signed-in admin's Zendesk locale, as the session answer names it
// (`en` or `fr`). Components read their texts through useTexts(); English until the session says.
import { createContext, useContext, type ReactNode } from 'react';
import { en, type Messages } from './en';
import { fr } from './fr';

export type Language = 'en' | 'fr';

const MESSAGES: Record<Language, Messages> = { en, fr };

/** `fr`, `fr-FR`, `fr-CA` speak French; any other locale English. */
export function languageOf(locale: string | null | undefined): Language {
  return (locale ?? '').trim().toLowerCase().split(/[-_]/)[0] === 'fr' ? 'fr' : 'en';
}

interface I18nValue {
  language: Language;
  t: Messages;
}

const I18nContext = createContext<I18nValue>({ language: 'en', t: en });

export function I18nProvider(props: { language: Language; children: ReactNode }) {
  return (
    <I18nContext.Provider value={{ language: props.language, t: MESSAGES[props.language] }}>
      {props.children}
    </I18nContext.Provider>
  );
}

export const useTexts = (): Messages => useContext(I18nContext).t;
export const useLanguage = (): Language => useContext(I18nContext).language;
