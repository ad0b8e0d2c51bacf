import { describe, expect, it } from 'vitest';
import type { TDetailedIncident } from '@incident-desk/incident-api';
import { dashboardLink } from '../src/notes/dashboard-link';
import { detectedIncidentNote } from '../src/notes/detected-incident-note';
import { normalizeText } from '../src/notes/normalize';
import { noteTexts } from '../src/notes/texts';

// The defanging rule itself is pinned by packages/threat-text/test/threat-text.test.ts.
describe('normalizeText', () => {
  it('turns non-breaking spaces into spaces and folds runs of blanks', () => {
    expect(normalizeText('Hello\u00a0 there\u202fagent\r\n  next line  ')).toBe(
      'Hello there agent\nnext line',
    );
  });
});

describe('detectedIncidentNote', () => {
  it('defangs every free-text value that may name a host, not only the threat', () => {
    const note = detectedIncidentNote(
      {
        id: 'inc_1',
        url: 'https://quiet-threat.example/a',
        status: 'monitoring',
        hostingProvider: 'Bulletproof hosting http://bp-host.example',
        registrar: {
          name: 'evil-registrar.example',
          description: 'see https://whois.evil.example',
        },
        threatTaxonomy: { name: 'Phishing www.phish-taxonomy.example' },
        incidentClass: 'phishing',
      } as unknown as TDetailedIncident,
      noteTexts('en'),
    );
    expect(note).toContain('Hosting provider: Bulletproof hosting hxxp[:]//bp-host[.]example');
    expect(note).toContain('Registrar: evil-registrar[.]example');
    expect(note).toContain('Taxonomy: Phishing www[.]phish-taxonomy[.]example');
    expect(note).not.toMatch(/https?:\/\/|bp-host\.example|evil-registrar\.example/);
    expect(note).toContain('Status: monitoring');
  });
});

describe('dashboardLink', () => {
  it("keeps the service's http(s) link and drops anything else", () => {
    expect(dashboardLink('https://dash.example/incident/inc_1')).toBe(
      'https://dash.example/incident/inc_1',
    );
    expect(dashboardLink(undefined)).toBeNull();
    expect(dashboardLink('javascript:alert(1)')).toBeNull();
    expect(dashboardLink('https://dash.example/incident/inc_1\nInjected line')).toBeNull();
    expect(dashboardLink(`https://dash.example/${'a'.repeat(3_000)}`)).toBeNull();
    expect(dashboardLink('not a url')).toBeNull();
  });
});
