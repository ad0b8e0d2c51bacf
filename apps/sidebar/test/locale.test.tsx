// The agent's locale sets lang, plurals and numbers; calendar dates never move.
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { clientServing, renderSidebar } from './render';
import { detailedIncident, linkedView } from './fixtures';
import type { TSidebarTicketView } from '@incident-desk/sidebar-contract';

async function show(view: TSidebarTicketView, locale: string, timeZone = 'Europe/Paris') {
  renderSidebar(
    clientServing(view, {}, { currentUser: { id: 7, email: 'a@x.example', locale, timeZone } }),
  );
  return screen.findByTestId('status-card');
}

const credits = (remainingCredits: number) =>
  linkedView({ usage: { clientId: 'c', clientName: 'Acme', remainingCredits } });

describe('locale', () => {
  it.each([
    ['fr-CA', 'fr'],
    ['en-US', 'en'],
    ['ja', 'en'],
  ])('a %s agent gets <html lang="%s">', async (locale, lang) => {
    document.documentElement.lang = 'xx';
    await show(linkedView(), locale);
    await waitFor(() => expect(document.documentElement.lang).toBe(lang));
  });

  it.each([
    ['en-US', 1, '1 credit left'],
    ['en-US', 2, '2 credits left'],
    ['en-US', 1500, '1,500 credits left'],
    ['fr', 1, '1 crédit restant'],
    ['fr', 5, '5 crédits restants'],
  ])('%s: %s credits read "%s"', async (locale, count, text) => {
    await show(credits(count), locale);
    expect(screen.getByTestId('credits-value').textContent).toBe(text);
  });

  it('the approve button counts credits in French', async () => {
    const card = await show(credits(24), 'fr');
    expect(card.textContent).toContain('Approuver le retrait · utilise 1 crédit sur 24');
  });

  it('shows readable labels for enum values, in French too', async () => {
    await show(
      linkedView({
        incident: detailedIncident({ registrar: { name: 'R', difficulty: 'very_hard' } }),
      }),
      'fr',
    );
    const infra = screen.getByTestId('infrastructure').textContent ?? '';
    expect(infra).toContain('Très difficile');
    expect(infra).not.toContain('very_hard');
    expect(screen.getByTestId('overview').textContent).toContain('Hameçonnage');
  });
});

describe('the first render waits for the locale', () => {
  it('shows a French agent nothing English while the locale answer comes after the view', async () => {
    // the page as the connector serves it: its language unknown until the agent's is
    document.documentElement.lang = '';
    const client = clientServing(
      linkedView(),
      {},
      {
        currentUser: { id: 7, email: 'a@x.example', locale: 'fr', timeZone: 'Europe/Paris' },
      },
    );
    // Zendesk answers the locale (the get) only when the test says so; the connector at once
    let answerLocale: (() => void) | null = null;
    const asked = client.get.bind(client);
    client.get = (path) =>
      new Promise((resolve) => {
        answerLocale = () => resolve(asked(path));
      });
    const seen: { lang: string; text: string }[] = [];
    const record = () =>
      seen.push({ lang: document.documentElement.lang, text: document.body.textContent ?? '' });
    const observer = new MutationObserver(record);
    observer.observe(document.documentElement, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
    try {
      renderSidebar(client);
      record();
      await screen.findByTestId('loading-skeleton');
      // Zendesk was asked and has not answered; the connector would answer the view at once
      await waitFor(() => expect(answerLocale).not.toBeNull());
      record();
      expect(screen.queryByTestId('status-card')).toBeNull();
      answerLocale!();
      const card = await screen.findByTestId('status-card');
      record();
      expect(card.textContent).toContain('Approbation requise');
      expect(document.documentElement.lang).toBe('fr');
    } finally {
      observer.disconnect();
    }
    const english = ['Loading', 'Updated', 'Refresh', 'Approval required', 'More actions'];
    for (const moment of seen) {
      expect(moment.lang).not.toBe('en');
      for (const words of english) expect(moment.text).not.toContain(words);
    }
    expect(seen.some((moment) => moment.text.includes('Mis à jour'))).toBe(true);
  });
});

describe('date-only values for an agent west of UTC', () => {
  const whoisView = () =>
    linkedView({
      incident: detailedIncident({
        insights: {
          snapshotTimestamp: '2026-11-02T07:00:00.000Z',
          whois: {
            createdDate: '2026-10-30T00:00:00.000Z',
            expiryDate: '2027-10-30',
          },
          certificate: { validFrom: '2026-10-01T00:00:00Z', validTo: '2026-12-30' },
        },
      }),
      snapshots: [
        {
          id: 's1',
          incidentId: 'inc_123',
          type: 'incident_created',
          timestamp: '2026-11-01T10:05:00.000Z',
          whois: { domain: 'x.example', createdDate: '2026-10-30' },
        },
      ],
    });

  it('shows WHOIS and certificate dates as the calendar date, never the day before', async () => {
    await show(whoisView(), 'en-US', 'America/Los_Angeles');
    const whois = screen.getByTestId('insights-whois').textContent ?? '';
    expect(whois).toContain('Oct 30, 2026');
    expect(whois).not.toContain('Oct 29, 2026');
    expect(whois).toContain('Oct 30, 2027');
    const certificate = screen.getByTestId('insights-certificate').textContent ?? '';
    expect(certificate).toContain('Oct 1, 2026');
    expect(certificate).not.toContain('Sep 30, 2026');
    expect(certificate).toContain('Dec 30, 2026');
    expect(screen.getByTestId('snapshot').textContent).toContain('Oct 30, 2026');
    // no time of day on a calendar date
    expect(whois).not.toMatch(/\d:\d\d\s?[AP]M/);
  });

  it('still shows timestamps in the agent’s zone', async () => {
    await show(whoisView(), 'en-US', 'America/Los_Angeles');
    // 2026-11-02T07:00Z is Nov 1, 11:00 PM in Los Angeles
    expect(screen.getByTestId('insights').textContent).toMatch(/Nov 1, 2026,? 11:00\s?PM/);
  });
});
