import { describe, expect, it } from 'vitest';
import type { TDetailedIncident } from '@incident-desk/incident-api';
import { detectedIncidentNote, detectedTicketSubject } from '../src/notes/detected-incident-note';
import { noteTexts } from '../src/notes/texts';
import { displayThreat, threatValue } from '../src/notes/threat-display';
import { parseIncidentEvent } from '../src/sync/incident-events/parse-incident-event';

const base: TDetailedIncident = {
  id: 'abc123',
  clientId: 'cl_1',
  safeDomain: 'brand.example',
  incidentType: 'domain',
  source: 'detected',
  status: 'takedown_in_progress',
  timestamp: '2030-01-01T00:00:00Z',
  incidentClass: 'phishing',
  history: [],
  incidentState: {
    unresponsive: false,
    warningBanner: false,
    responsive: true,
    contentRemoved: false,
    redirect: false,
    inconclusive: false,
    timestamp: '2030-01-01T00:00:00Z',
  },
  blocklists: [],
};

describe('threat display', () => {
  it('prefers url, then subject, then domain, then a generic text, always defanged', () => {
    expect(threatValue({ url: 'https://a.example/x', subject: 's', domain: 'd.example' })).toBe(
      'https://a.example/x',
    );
    expect(displayThreat({ subject: 'ceo@bad.example', domain: 'd.example' })).toBe(
      'ceo[@]bad[.]example',
    );
    expect(displayThreat({ url: ' ', domain: 'd.example' })).toBe('d[.]example');
    expect(displayThreat({})).toBe('unknown threat');
  });

  it('keeps subjects to one line and a bounded length', () => {
    const subject = detectedTicketSubject(undefined, `${'x'.repeat(300)}\nline`);
    expect(subject.startsWith('[incident-desk] unknown status - xxx')).toBe(true);
    expect(subject).not.toContain('\n');
    expect(subject.length).toBeLessThan(240);
  });
});

describe('detected incident note', () => {
  it('shows every section with its fallback when the detail carries nothing optional', () => {
    const note = detectedIncidentNote({ ...base, domain: 'bad.example' }, noteTexts('en'));
    expect(note).toContain('Threat: bad[.]example');
    expect(note).toContain('Taxonomy: not available (class phishing)');
    expect(note).toContain('Registrar: not available');
    expect(note).toContain('Hosting provider: not available');
    expect(note).toContain('Blocklist listings: none submitted');
    expect(note).toContain('Insights: none captured yet');
    // no machine ids: the incident and the event are named in the create's audit metadata
    expect(note).not.toMatch(/abc123|evt_|Incident: |Event: /);
    expect(note.endsWith('Insights: none captured yet')).toBe(true);
  });

  it('renders taxonomy, listings and insights with every threat value defanged', () => {
    const note = detectedIncidentNote(
      {
        ...base,
        url: 'https://login.bad.example/<script>',
        threatTaxonomy: {
          name: 'Phishing',
          description: '',
          incidentThreatType: { id: '1', name: 'Credential theft', description: '' },
        },
        registrar: { name: 'Reg Co' },
        hostingProvider: 'Host Co',
        blocklists: [
          {
            authority: 'SafeBrowse',
            type: 'warning-banner',
            status: 'submitted',
            listedAt: null,
            link: null,
          },
          {
            authority: 'ListX',
            type: 'blocklist',
            status: 'listed',
            listedAt: '2030-01-02T00:00:00Z',
            link: 'https://listx.example/login.bad.example',
          },
        ],
        insights: {
          snapshotTimestamp: '2030-01-03T00:00:00Z',
          whois: { registrar: 'Reg Co', domainAgeDays: null, isNewDomain: null },
          certificate: { issuer: "Let's Encrypt", isValid: true },
          hosting: {
            cdnDetected: true,
            cdnName: 'CDN Co',
            providers: [
              {
                ip: '203.0.113.1',
                network: 'n',
                organization: 'Host Co',
                isCdn: false,
                abuseEmails: [],
              },
            ],
            originHints: [],
          },
          page: { title: 'Sign in to brand.example' },
          indicators: { finalUrl: 'https://final.bad.example/x' },
        },
      } as TDetailedIncident,
      noteTexts('en'),
    );
    expect(note).toContain('Threat: hxxps[:]//login[.]bad[.]example/<script>');
    expect(note).toContain('Taxonomy: Phishing / Credential theft (class phishing)');
    expect(note).toContain('- SafeBrowse, warning-banner: submitted (protection in progress)');
    expect(note).toContain(
      '- ListX, blocklist: listed since 2030-01-02T00:00:00Z - hxxps[:]//listx[.]example/login[.]bad[.]example',
    );
    expect(note).toContain('- WHOIS: Reg Co, age undetermined');
    expect(note).toContain('- Hosting: Host Co, behind CDN CDN Co');
    expect(note).toContain('- Page title: Sign in to brand[.]example');
    expect(note).toContain('- Final URL: hxxps[:]//final[.]bad[.]example/x');
    expect(note).not.toMatch(/https?:\/\//);
  });
});

describe('parseIncidentEvent', () => {
  const received = '2030-06-01T00:00:00.000Z';

  it('reads a full event', () => {
    const parsed = parseIncidentEvent(
      {
        id: 'evt_1',
        event: 'incident.action_required',
        timestamp: '2030-05-01T00:00:00Z',
        clientId: 'cl',
        data: { incidentId: 'i1', waitForClient: 'why' },
      },
      received,
    );
    expect(parsed).toMatchObject({
      ok: true,
      event: { ref: 'evt_1', incidentId: 'i1', waitForClient: 'why', clientId: 'cl' },
    });
    expect(parsed.ok && parsed.event.occurredAt.toISOString()).toBe('2030-05-01T00:00:00.000Z');
  });

  it('never rejects a valid event for an odd or missing display field', () => {
    const parsed = parseIncidentEvent(
      {
        event: 'incident.history_created',
        timestamp: 'not a date',
        clientId: 7,
        data: { incidentId: 'i1', historyEntry: { message: 5 }, waitForClient: { x: 1 } },
      },
      received,
    );
    expect(parsed).toMatchObject({ ok: true, event: { name: 'incident.history_created' } });
    if (!parsed.ok || parsed.event.name !== 'incident.history_created') return;
    expect(parsed.event.historyMessage).toBeUndefined();
    // a history event reads no waitForClient at all
    expect('waitForClient' in parsed.event).toBe(false);
    expect(parsed.event.clientId).toBeUndefined();
    expect(parsed.event.occurredAt.toISOString()).toBe(received);
    expect(parsed.event.ref).toMatch(/^sha256:[0-9a-f]{32}$/);
  });

  it('tells unknown and malformed events apart', () => {
    expect(parseIncidentEvent({ event: 'incident.merged', data: {} }, received)).toEqual({
      ok: false,
      reason: 'unknown_event',
      name: 'incident.merged',
    });
    expect(parseIncidentEvent({ event: 'incident.created', data: {} }, received)).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    expect(parseIncidentEvent({ data: {} }, received)).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    expect(parseIncidentEvent({ event: 'webhook.test' }, received)).toMatchObject({
      ok: true,
      event: { name: 'webhook.test' },
    });
  });
});
