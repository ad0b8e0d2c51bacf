import { Router } from 'express';
import { requireScope } from './authenticate';
import { caller, type SandboxContext } from './context';

/** Zendesk's ids and names of the locales the sandbox knows (its own list is far longer). */
export const KNOWN_LOCALES: readonly { id: number; locale: string; name: string }[] = [
  { id: 1, locale: 'en-US', name: 'English' },
  { id: 2, locale: 'es', name: 'Español' },
  { id: 8, locale: 'de', name: 'Deutsch' },
  { id: 16, locale: 'fr', name: 'Français' },
  { id: 1042, locale: 'fr-ca', name: 'Français (Canada)' },
];

/**
 * GET /api/v2/locales: the account's languages, its default one marked `default: true`. Zendesk's
 * documentation lists the fields without `default`; its answers carry it (e.g. the public list
 * marks en-US). Read with the global `read` scope (there is no locales scope).
 */
export function localesRouter(ctx: SandboxContext): Router {
  const router = Router();
  const { urls } = ctx;

  router.get('/api/v2/locales{.json}', requireScope(null, 'read', 'any'), (_req, res) => {
    const { account } = caller(res);
    const offered = KNOWN_LOCALES.filter(
      (known) => known.locale === 'en-US' || known.locale === account.defaultLocale,
    );
    res.json({
      locales: offered.map((known) => ({
        url: urls.api(account.subdomain, `locales/${known.locale}.json`),
        id: known.id,
        locale: known.locale,
        name: known.name,
        native_name: known.name,
        presentation_name: known.name,
        rtl: false,
        created_at: '2009-07-20T22:55:29Z',
        updated_at: '2026-01-01T00:00:00Z',
        default: known.locale === account.defaultLocale,
      })),
      next_page: null,
      previous_page: null,
      count: offered.length,
    });
  });

  return router;
}
