// A French admin reads analytics, settings, the group field, reconciliation, failed syncs, setup's
// outcome, the connector's refusals and the disconnect screens in French: each section rendered in French shows its French texts and none of the
// English ones (a text left in English fails here).
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ThemeProvider } from '@zendeskgarden/react-theming';
import type { DisconnectResult } from '@incident-desk/admin-contract';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '../src/i18n/i18n';
import { Analytics } from '../src/sections/Analytics';
import { DeadLetters } from '../src/sections/DeadLetters';
import { Disconnect } from '../src/sections/Disconnect';
import { Disconnected } from '../src/sections/Disconnected';
import { DisconnectionNotice } from '../src/sections/DisconnectionNotice';
import { Reconciliation } from '../src/sections/Reconciliation';
import { Settings } from '../src/sections/Settings';
import { Setup } from '../src/sections/Setup';
import { analyticsOf } from './analytics-fixture';
import { expectNoEnglish } from './english-left';
import { stubFetch } from './fetch-stub';
import { LETTERS, overviewOf } from './fixtures';

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
      detail: 'reported as incident inc_1, but the link collides with ticket 12',
      why: { kind: 'link_collides' as const, incidentId: 'inc_1', other: 'ticket 12' },
      createdAt: '2026-11-23T10:00:00.000Z',
    };
    const newer = {
      ...entry,
      ticketId: 78,
      reason: 'newer reason',
      detail: 'English from a newer connector',
      why: { kind: 'newer_kind' } as never,
    };
    inFrench(<Reconciliation entries={[entry, newer]} refresh={() => undefined} />);
    expect(
      screen.getByRole('region', { name: 'File de rapprochement (tickets non liés)' }),
    ).toBeTruthy();
    expect(
      screen.getByText(
        'Son signalement n’a pas pu être lié à un incident (conflit de liaison : signalé comme incident inc_1, mais la liaison entre en conflit avec ticket 12).',
      ),
    ).toBeTruthy();
    expect(
      screen.getByText(
        'Son signalement n’a pas pu être lié à un incident (newer reason : pour une raison que cette page ne sait pas nommer).',
      ),
    ).toBeTruthy();
    await userEvent.setup().click(screen.getAllByRole('button', { name: 'Réessayer' })[0]!);
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

  it('reads each failed sync in French: what failed, why and what Retry does, by their codes', () => {
    const letters = structuredClone(LETTERS);
    letters.failedJobs = [
      {
        queue: 'account-setup',
        id: 'a0c7e2a4-0000-4000-8000-000000000001',
        failedAt: '2026-11-23T10:00:00.000Z',
        reason: 'worker crashed',
        work: 'account_setup',
        problem: { code: 'stopped_with', reason: 'worker crashed' },
      },
      {
        queue: 'pgboss.new',
        id: 'a0c7e2a4-0000-4000-8000-000000000002',
        failedAt: null,
        reason: 'what a newer connector says',
        // codes of a newer connector: read as generic sentences, never a crash
        work: 'newer_work' as never,
        problem: { code: 'newer_problem' } as never,
      },
    ];
    letters.failedForwards.push({
      ...letters.failedForwards[0]!,
      commentId: '777002',
      problem: { code: 'outcome_unknown' },
      canRetry: false,
    });
    inFrench(<DeadLetters letters={letters} refresh={() => undefined} />);
    const [forward, unknownForward] = screen.getAllByTestId('failed-forward');
    expect(forward!.textContent).toContain(
      'Le transfert d’un commentaire du ticket vers l’incident a échoué.',
    );
    expect(forward!.textContent).toContain(
      'Le service d’incidents a eu une erreur interne (HTTP 500).',
    );
    expect(forward!.textContent).toContain('Réessayer transfère de nouveau ce commentaire');
    expect(unknownForward!.textContent).toContain('Le worker s’est arrêté pendant l’envoi');
    const write = screen.getByTestId('sync-failure');
    expect(write.textContent).toContain('Zendesk a refusé les données (HTTP 422).');
    expect(write.textContent).toContain('il ne peut pas être réessayé');
    const [setupJob, newerJob] = screen.getAllByTestId('failed-job');
    expect(setupJob!.textContent).toContain(
      'La configuration du compte a échoué à chaque tentative.',
    );
    expect(setupJob!.textContent).toContain('Arrêt sur : worker crashed');
    expect(setupJob!.textContent).toContain('Réessayer relance la configuration.');
    expect(newerJob!.textContent).toContain('Une tâche de fond a échoué.');
    expect(newerJob!.textContent).toContain('L’opération a échoué ; le détail technique');
    expect(newerJob!.textContent).toContain('Réessayer remet la tâche en file.');
    expectNoEnglish('deadLetters', 'failedSync');
  });

  it('reads how setup ended in French, from its codes, and a code it does not know', () => {
    const outcomeOf = (report: Record<string, unknown>) => {
      const overview = overviewOf();
      overview.setup = {
        state: 'failed',
        requestedAt: null,
        finishedAt: null,
        report: { ok: false, message: 'English only', steps: [], scopeAfter: null, ...report },
      };
      const { unmount } = inFrench(<Setup overview={overview} refresh={() => undefined} />);
      const text = screen.getByTestId('setup-message').textContent;
      unmount();
      return text;
    };
    expect(
      outcomeOf({
        outcome: { code: 'finished_with_failures', failedSteps: 2 },
        webhookTest: { outcome: 'refused', status: 502 },
        narrowing: { code: 'kept_wider', scope: 'read write' },
      }),
    ).toContain(
      'Configuration terminée avec 2 étape(s) en échec. Test du webhook par Zendesk : Zendesk a envoyé le test, et le connecteur a répondu 502 : vérifiez que Zendesk peut joindre l’adresse publique du connecteur. Zendesk a conservé des portées au-delà du fonctionnement courant (read write).',
    );
    expect(outcomeOf({ outcome: { code: 'ran_too_long' } })).toContain(
      'Configuration arrêtée : elle a dépassé son temps limite',
    );
    expect(
      outcomeOf({ outcome: { code: 'disconnected', reason: 'authorization_lost' } }),
    ).toContain('incident-desk est déconnecté de ce compte Zendesk (autorisation perdue)');
    expect(
      outcomeOf({ outcome: { code: 'needs_setup_scopes', granted: 'read', needed: 'read write' } }),
    ).toContain('Le jeton enregistré a « read » ; la configuration a besoin de « read write ».');
    expect(outcomeOf({ outcome: { code: 'newer_outcome' } })).toContain(
      'La configuration n’a pas abouti',
    );
    // a report stored before the codes: its English message, as it was
    expect(outcomeOf({})).toContain('English only');
  });

  it('is told in French why the connector refused an action, a code it does not know too', async () => {
    stubFetch({
      'POST /reconciliation/77/link': {
        status: 422,
        body: { error: { code: 'unknown_incident', message: 'the incident service knows…' } },
      },
      'POST /reconciliation/77/retry': {
        status: 429,
        body: { error: { code: 'zendesk_limited', message: 'x', retryAfterSeconds: 30 } },
      },
    });
    const entry = {
      ticketId: 77,
      ticketUrl: 'https://acme.zendesk.com/agent/tickets/77',
      reason: 'duplicate',
      detail: null,
      createdAt: '2026-11-23T10:00:00.000Z',
    };
    inFrench(<Reconciliation entries={[entry]} refresh={() => undefined} />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Identifiant de l’incident' }), 'inc_9');
    await user.click(screen.getByRole('button', { name: 'Lier' }));
    expect(
      await screen.findByText('Le service d’incidents ne connaît pas cet incident pour ce compte.'),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(
      await screen.findByText(
        'Zendesk limite les mises à jour de tickets de ce compte : réessayez dans 30 s.',
      ),
    ).toBeTruthy();
    stubFetch({
      'POST /reconciliation/77/link': {
        status: 409,
        body: { error: { code: 'newer_refusal', message: 'English from a newer connector' } },
      },
    });
    await user.click(screen.getByRole('button', { name: 'Lier' }));
    expect(await screen.findByText('Le connecteur a refusé l’action (HTTP 409).')).toBeTruthy();
    expectNoEnglish('actionError');
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
