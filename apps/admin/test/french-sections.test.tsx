// A French admin reads analytics, settings, the group field, reconciliation and the disconnect
// screens in French: each section rendered in French shows its French texts and none of the
// English ones (a text left in English fails here).
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ThemeProvider } from '@zendeskgarden/react-theming';
import type { DisconnectResult } from '@incident-desk/admin-contract';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '../src/i18n/i18n';
import { Analytics } from '../src/sections/Analytics';
import { Disconnect } from '../src/sections/Disconnect';
import { Disconnected } from '../src/sections/Disconnected';
import { DisconnectionNotice } from '../src/sections/DisconnectionNotice';
import { Reconciliation } from '../src/sections/Reconciliation';
import { Settings } from '../src/sections/Settings';
import { Setup } from '../src/sections/Setup';
import { analyticsOf } from './analytics-fixture';
import { expectNoEnglish } from './english-left';
import { stubFetch } from './fetch-stub';
import { overviewOf } from './fixtures';

afterEach(() => {
  vi.unstubAllGlobals();
});

const inFrench = (children: ReactNode) =>
  render(
    <ThemeProvider>
      <I18nProvider language="fr">{children}</I18nProvider>
    </ThemeProvider>,
  );

const RESULT: DisconnectResult = {
  ok: false,
  finishedAt: '2026-11-26T12:00:00.000Z',
  steps: [
    { item: 'view', target: 'Takedowns waiting for approval', outcome: 'removed' },
    { item: 'zendesk_webhook', target: 'incident-desk connector', outcome: 'failed' },
    { item: 'ticket_field', target: 'Threat URL', outcome: 'kept' },
  ],
};

describe('a French admin', () => {
  it('reads the analytics, their charts, legends, tables and links in French', async () => {
    const partial = [{ clientId: 'cl_b', part: 'takedown attempts', message: 'HTTP 503' }];
    stubFetch({ 'GET /analytics': { body: analyticsOf({ partial }) } });
    inFrench(<Analytics />);
    await screen.findByTestId('analytics-charts');
    expect(screen.getByTestId('analytics-partial').textContent).toContain(
      'Retail: tentatives de retrait: HTTP 503',
    );
    expect(screen.getByRole('region', { name: 'Statistiques des retraits' })).toBeTruthy();
    expect(screen.getAllByText('Incidents signalés par semaine').length).toBeGreaterThan(0);
    expect(screen.getByRole('list', { name: /Légende de « Taux de réussite/ })).toBeTruthy();
    expect(screen.getByTestId('csv-credits').textContent).toBe(
      'Télécharger les chiffres de « Crédits utilisés » (CSV)',
    );
    expect(screen.getByTestId('blocklist-coverage-summary').textContent).toBe(
      '4 des 6 incidents lus sont inscrits sur une liste de blocage (67%).',
    );
    expect(screen.getAllByText('médiane 5 j').length).toBeGreaterThan(0);
    expect(screen.getAllByText('plus de 7 jours').length).toBeGreaterThan(0);
    expectNoEnglish('analytics', 'charts');
  });

  it('is told in French that analytics need the incident API key', async () => {
    stubFetch({
      'GET /analytics': { status: 409, body: { error: { code: 'not_configured', message: 'x' } } },
    });
    inFrench(<Analytics />);
    expect(await screen.findByText('Pas encore de statistiques')).toBeTruthy();
    expectNoEnglish('analytics');
  });

  it('reads the settings and the group field in French, and a refused group id', async () => {
    stubFetch({
      'GET /zendesk-groups': { status: 403, body: { error: { code: 'groups_not_readable' } } },
    });
    inFrench(<Settings overview={overviewOf()} refresh={() => undefined} showIncidentForm />);
    expect(
      await screen.findByText(/Zendesk ne permet pas à incident-desk de lire les groupes/),
    ).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Paramètres' })).toBeTruthy();
    expect(screen.getByText('Transférer les notes internes')).toBeTruthy();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Groupe des nouveaux tickets' }), 'abc');
    await user.click(screen.getByRole('button', { name: 'Enregistrer les paramètres' }));
    expect(await screen.findByText(/Un identifiant de groupe est un nombre/)).toBeTruthy();
    expectNoEnglish('settings', 'groupField');
  });

  it('reads the reconciliation queue in French, its reason too, and what a retry did', async () => {
    stubFetch({
      'POST /reconciliation/77/retry': { body: { status: 200, message: 'report queued' } },
    });
    const entry = {
      ticketId: 77,
      ticketUrl: 'https://acme.zendesk.com/agent/tickets/77',
      reason: 'link conflict',
      detail: null,
      createdAt: '2026-11-23T10:00:00.000Z',
    };
    inFrench(<Reconciliation entries={[entry]} refresh={() => undefined} />);
    expect(
      screen.getByRole('region', { name: 'File de rapprochement (tickets non liés)' }),
    ).toBeTruthy();
    expect(
      screen.getByText('Son signalement n’a pas pu être lié à un incident (conflit de liaison).'),
    ).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Réessayer' }));
    await waitFor(() =>
      expect(screen.getByTestId('reconciliation-done').textContent).toContain(
        'signalement remis en file : le worker le signale à nouveau',
      ),
    );
    expectNoEnglish('reconciliation');
  });

  it('reads each line of the setup report in French, by its step and outcome codes', () => {
    const overview = overviewOf();
    overview.setup = {
      state: 'failed',
      requestedAt: '2026-11-26T12:00:00.000Z',
      finishedAt: '2026-11-26T12:01:00.000Z',
      report: {
        ok: false,
        message: 'setup failed',
        scopeAfter: null,
        steps: [
          { step: 'ticket_field', target: 'Threat URL', outcome: 'created' },
          { step: 'zendesk_webhook', target: 'incident-desk', outcome: 'failed' },
          { step: 'new_step', target: 'x', outcome: 'new_outcome' },
        ],
      },
    };
    inFrench(<Setup overview={overview} refresh={() => undefined} />);
    const lines = [...document.querySelectorAll('#setup-steps li')].map((li) => li.textContent);
    expect(lines).toEqual([
      'Champ de ticket Threat URL : créé',
      'Webhook Zendesk incident-desk : échec',
      'new_step x : new_outcome',
    ]);
  });

  it('reads the disconnect dialog in French', async () => {
    stubFetch({});
    inFrench(<Disconnect overview={overviewOf()} onDisconnected={() => undefined} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Déconnecter…' }));
    expect(await screen.findByText('Déconnecter incident-desk de acme ?')).toBeTruthy();
    expect(screen.getByText('Ceci supprime, de façon définitive :')).toBeTruthy();
    expectNoEnglish('disconnect');
  });

  it('reads what a disconnect removed, and why incident-desk stopped, in French', () => {
    const overview = {
      ...overviewOf(),
      disconnection: {
        reason: 'authorization_lost' as const,
        since: '2026-11-26T12:00:00.000Z',
        detail: null,
      },
    };
    inFrench(
      <>
        <DisconnectionNotice overview={overview} />
        <Disconnected subdomain="acme" result={RESULT} />
      </>,
    );
    expect(screen.getByText('Zendesk n’accepte plus l’autorisation d’incident-desk')).toBeTruthy();
    expect(screen.getByText('Vue Takedowns waiting for approval — supprimé')).toBeTruthy();
    expect(
      screen.getByText(
        'Webhook Zendesk incident-desk connector — non supprimé : supprimez-le à la main',
      ),
    ).toBeTruthy();
    expectNoEnglish('disconnected', 'disconnection');
  });
});
