// The admin page speaks the signed-in admin's Zendesk locale (the session answer names it): a
// French admin reads French from the first text shown, with <html lang="fr">; any other locale
// reads English.
import { render, screen } from '@testing-library/react';
import { ThemeProvider } from '@zendeskgarden/react-theming';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../src/App';
import { stubFetch } from './fetch-stub';
import { NEW_ACCOUNT, overviewOf } from './fixtures';

const sessionIn = (locale: string) => ({
  subdomain: 'acme',
  userName: 'Ada Admin',
  locale,
  expiresAt: '2026-11-24T00:00:00.000Z',
  csrfToken: 'csrf-1',
});

function accountRoutes(session: () => Promise<{ body: unknown }> | { body: unknown }) {
  return stubFetch({
    'GET /session': session,
    'GET /first-run': { body: NEW_ACCOUNT },
    'GET /overview': { body: overviewOf() },
    'GET /dead-letters': { body: { syncFailures: [], failedForwards: [], failedJobs: [] } },
    'GET /reconciliation': { body: { entries: [] } },
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.documentElement.lang = 'en';
});

describe('the admin page’s language', () => {
  it('a French admin reads the page in French, with <html lang="fr">', async () => {
    accountRoutes(() => ({ body: sessionIn('fr') }));
    render(
      <ThemeProvider>
        <App />
      </ThemeProvider>,
    );
    expect(await screen.findByRole('region', { name: 'Premiers pas' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('fr');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Administration d’incident-desk',
    );
    expect(screen.getByText('Connecté en tant que Ada Admin, admin de acme')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Synchronisations en échec' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Envoyer une livraison de test' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Get started' })).toBeNull();
  });

  it('shows no English text before the session answers (no English flash)', async () => {
    let answer: (value: { body: unknown }) => void = () => undefined;
    accountRoutes(() => new Promise((resolve) => (answer = resolve)));
    const seen: string[] = [];
    const observer = new MutationObserver(() => seen.push(document.body.textContent ?? ''));
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    render(
      <ThemeProvider>
        <App />
      </ThemeProvider>,
    );
    // waiting for the session: a wordless spinner only
    expect(await screen.findByTestId('loading')).toBeTruthy();
    expect(document.body.textContent?.trim()).toBe('');
    answer({ body: sessionIn('fr-FR') });
    expect(await screen.findByRole('region', { name: 'Premiers pas' })).toBeTruthy();
    observer.disconnect();
    for (const text of seen) {
      expect(text).not.toContain('incident-desk admin');
      expect(text).not.toContain('Get started');
      expect(text).not.toContain('Signed in as');
    }
    expect(document.documentElement.lang).toBe('fr');
  });

  it('any other locale reads English', async () => {
    accountRoutes(() => ({ body: sessionIn('de') }));
    render(
      <ThemeProvider>
        <App />
      </ThemeProvider>,
    );
    expect(await screen.findByRole('region', { name: 'Get started' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('en');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('incident-desk admin');
  });
});
