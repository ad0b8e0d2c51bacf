import type { TDetailedIncident } from '../src/app/api/incidentTypes';
import type { TSidebarTicketView } from '@incident-desk/sidebar-contract';

export function detailedIncident(overrides: Partial<TDetailedIncident> = {}): TDetailedIncident {
  return {
    id: 'inc_123',
    clientId: 'client-1',
    safeDomain: 'acme.example',
    subject: 'https://login.acme-secure.example/verify',
    incidentType: 'domain',
    url: 'https://login.acme-secure.example/verify',
    domain: 'acme-secure.example',
    source: 'client_report',
    status: 'approval_required',
    timestamp: '2026-11-01T10:00:00.000Z',
    lastHistoryUpdateTimestamp: '2026-11-03T09:30:00.000Z',
    burnStartedTimestamp: '2026-11-02T12:00:00.000Z',
    reportedBy: 'reporter@acme.example',
    incidentClass: 'phishing',
    threatTaxonomy: {
      name: 'Credential phishing',
      description: 'Fake login page',
      incidentTargetType: { id: 't1', name: 'Brand', description: 'Impersonates the brand' },
      incidentType: { id: 't2', name: 'Phishing site', description: '' },
      incidentThreatType: { id: 't3', name: 'Credential theft', description: '' },
    },
    history: [
      { timestamp: '2026-11-01T10:00:00.000Z', message: 'Incident reported' },
      { timestamp: '2026-11-03T09:30:00.000Z', message: 'Awaiting approval' },
      { timestamp: '2026-11-02T08:00:00.000Z', message: 'Analyst assigned' },
    ],
    incidentState: {
      unresponsive: false,
      warningBanner: true,
      responsive: true,
      contentRemoved: false,
      redirect: false,
      inconclusive: false,
      timestamp: '2026-11-03T08:00:00.000Z',
    },
    registrar: {
      name: 'Example Registrar Ltd',
      difficulty: 'hard',
      description: 'Slow to respond',
    },
    hostingProvider: 'Example Hosting',
    blocklists: [
      {
        authority: 'SafeBrowse',
        type: 'warning-banner',
        status: 'listed',
        listedAt: '2026-11-02T15:00:00.000Z',
        link: 'https://safebrowse.partner.example/listing/1',
      },
      { authority: 'BlockDB', type: 'blocklist', status: 'submitted', listedAt: null, link: null },
    ],
    insights: {
      snapshotTimestamp: '2026-11-02T07:00:00.000Z',
      dns: { recordTypes: ['A', 'MX'], recordCounts: { A: 2, MX: 1 } },
      whois: {
        domain: 'acme-secure.example',
        registrar: 'Example Registrar Ltd',
        createdDate: '2026-10-30T00:00:00.000Z',
        domainAgeDays: 3,
        isNewDomain: true,
        isExpired: null,
      },
      certificate: {
        issuer: "Let's Encrypt",
        isValid: null,
        subjectAltNames: ['login.acme-secure.example'],
      },
    },
    ...overrides,
  };
}

export function linkedView(overrides: Partial<TSidebarTicketView> = {}): TSidebarTicketView {
  return {
    ticket: {
      id: 42,
      linkState: 'linked',
      incidentId: 'inc_123',
      threat: 'https://login.acme-secure.example/verify',
      fieldIds: { threat: 1001, incidentId: 1002, incidentStatus: 1003 },
    },
    incident: detailedIncident(),
    snapshots: [
      {
        id: 's1',
        incidentId: 'inc_123',
        type: 'incident_created',
        timestamp: '2026-11-01T10:05:00.000Z',
        description: 'first capture',
        dns: { A: { records: ['203.0.113.7'], rcode: 'NOERROR' } },
        whois: { domain: 'acme-secure.example', createdDate: '2026-10-30' },
      },
      {
        id: 's2',
        incidentId: 'inc_123',
        type: 'incident_status_updated',
        timestamp: '2026-11-03T09:31:00.000Z',
        description: 'second capture',
        certificate: { issuer: "Let's Encrypt", sanEntries: ['login.acme-secure.example'] },
      },
    ],
    takedownAttempts: {
      id: 'inc_123',
      subject: 'https://login.acme-secure.example/verify',
      createdAt: '2026-11-01T10:00:00.000Z',
      takedownAttempts: [],
    },
    usage: { clientId: 'client-1', clientName: 'Acme', remainingCredits: 5 },
    sync: {
      lastEventAppliedAt: '2026-11-03T09:32:00.000Z',
      pendingForwards: 0,
      waitingTicketUpdates: 0,
      waitingSince: null,
      writesPausedUntil: null,
      failedForwards: [],
    },
    unavailable: [],
    analystRequest: null,
    requestedAction: null,
    viewer: { canAct: true, reason: null },
    fetchedAt: '2026-11-03T09:33:00.000Z',
    ...overrides,
  };
}

export function ticketOnlyView(
  linkState: 'unlinked' | 'none' | 'failed',
  extra: Partial<TSidebarTicketView['ticket']> = {},
): TSidebarTicketView {
  return linkedView({
    ticket: {
      id: 42,
      linkState,
      incidentId: null,
      threat: linkState === 'none' ? null : 'http://evil.example/login',
      fieldIds: { threat: 1001, incidentId: 1002 },
      ...extra,
    },
    incident: null,
    snapshots: [],
    takedownAttempts: null,
    usage: null,
  });
}
