// The captures of a seeded web incident: the first at its creation, a later one (rich for a
// takedown) after its status changed.
import type { SnapshotRecord } from './model';
import { at } from './seed-clock';
import type { SandboxStore } from './store';

export function webSnapshots(
  store: SandboxStore,
  incidentId: string,
  host: string,
  hour: number,
  rich: boolean,
): SnapshotRecord[] {
  const later: SnapshotRecord = {
    id: store.newId('snapshot', 'snap_', 16),
    incidentId,
    type: 'incident_status_updated',
    timestamp: at(hour + 5),
    description: 'Capture after status change',
    dns: { A: { records: ['203.0.113.10'], rcode: 'NOERROR' }, MX: { rcode: 'NXDOMAIN' } },
    whois: { domain: host, registrarIANAId: '1068', createdDate: '2026-08-28' },
    certificate: {
      issuer: "Let's Encrypt R11",
      subject: host,
      validFrom: '2026-08-28',
      sanEntries: [host],
    },
    insights: {
      dns: { recordTypes: ['A'], recordCounts: { A: 1 } },
      whois: {
        domain: host,
        registrar: 'Example Registrar LLC',
        registrarIANAId: '1068',
        createdDate: '2026-08-28T00:00:00.000Z',
        domainAgeDays: 4,
        isNewDomain: true,
        isExpired: null,
        statuses: ['clientTransferProhibited'],
      },
      ...(rich
        ? {
            hosting: {
              cdnDetected: false,
              providers: [
                {
                  ip: '203.0.113.10',
                  network: '203.0.113.0/24',
                  organization: 'Example Hosting',
                  isCdn: false,
                  abuseEmails: ['abuse@hosting.example'],
                },
              ],
              originHints: [],
            },
            page: {
              title: 'Sign in',
              headings: ['Welcome back'],
              linkCount: 3,
              formInputCount: 2,
              imageCount: 1,
            },
            indicators: {
              finalUrl: `https://${host}/login`,
              requestedUrl: `https://${host}/login`,
              redirectChain: [],
              captureDurationMs: 2140,
              scrapeRoute: {
                method: 'browser',
                uaType: 'desktop',
                proxyType: 'residential',
                country: 'NL',
                exitIp: '198.51.100.7',
                mobileExit: false,
              },
            },
          }
        : {}),
    },
  };
  const first: SnapshotRecord = {
    id: store.newId('snapshot', 'snap_', 16),
    incidentId,
    type: 'incident_created',
    timestamp: at(hour),
    description: 'Initial capture',
    dns: { A: { records: ['203.0.113.10'] } },
    whois: {},
  };
  return [later, first];
}
