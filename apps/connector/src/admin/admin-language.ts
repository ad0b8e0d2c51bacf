// The admin page's language: the signed-in admin's Zendesk locale ("fr", "fr-CA", "en-US") when
// the page speaks it, English for any other.
const ADMIN_LANGUAGES = ['en', 'fr'] as const;
export type AdminLanguage = (typeof ADMIN_LANGUAGES)[number];

export function adminLanguage(zendeskLocale: string | null | undefined): AdminLanguage {
  const language = (zendeskLocale ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return ADMIN_LANGUAGES.find((known) => known === language) ?? 'en';
}
