// Wire fixtures built from the spec's tables: a full form, a sparse form and every null case.

export const incidentFull = {
  id: '6650f1c2a1b2c3d4e5f60718',
  clientId: 'client_1',
  safeDomain: 'example.com',
  subject: 'https://examp1e-login.com/verify',
  incidentType: 'domain',
  domain: 'examp1e-login.com',
  url: 'https://examp1e-login.com/verify',
  source: 'api',
  status: 'takedown_in_progress',
  timestamp: '2026-08-01T10:00:00.000Z',
  lastHistoryUpdateTimestamp: '2026-08-02T10:00:00.000Z',
  burnStartedTimestamp: '2026-08-02T09:00:00.000Z',
  takedownTimestamp: '2026-08-03T10:00:00.000Z',
  reportedBy: 'analyst@example.com',
  threatTaxonomy: { name: 'Credential phishing', description: '' },
  incidentClass: 'phishing',
};

/** Only the "always" fields; a domain incident whose URL equals its domain. */
export const incidentSparse = {
  id: 'inc_abc123',
  safeDomain: 'example.com',
  incidentType: 'email',
  source: 'dashboard',
  status: 'pending_review',
  timestamp: '2026-08-01T10:00:00.000Z',
  incidentClass: 'other',
};

const incidentState = {
  unresponsive: false,
  warningBanner: true,
  responsive: true,
  contentRemoved: false,
  redirect: false,
  inconclusive: false,
  timestamp: '2026-08-03T08:00:00.000Z',
};

const insightsFull = {
  snapshotTimestamp: '2026-08-02T12:00:00.000Z',
  dns: { recordTypes: ['A', 'MX'], recordCounts: { A: 2, MX: 1 } },
  whois: {
    domain: 'examp1e-login.com',
    registrar: 'Registrar Inc',
    registrarIANAId: '1234',
    createdDate: '2026-07-30T00:00:00.000Z',
    updatedDate: '2026-07-31T00:00:00.000Z',
    expiryDate: '2027-07-30T00:00:00.000Z',
    domainAgeDays: 3,
    isNewDomain: true,
    isExpired: false,
    statuses: ['clientTransferProhibited'],
  },
  certificate: {
    issuer: "Let's Encrypt",
    subject: 'examp1e-login.com',
    validFrom: '2026-07-30T00:00:00.000Z',
    validTo: '2026-10-28T00:00:00.000Z',
    isValid: true,
    subjectAltNames: ['examp1e-login.com', 'www.examp1e-login.com'],
  },
  hosting: {
    cdnDetected: true,
    cdnName: 'Cloudflare',
    providers: [
      {
        ip: '192.0.2.10',
        network: '192.0.2.0/24',
        organization: 'Cloudflare',
        isCdn: true,
        abuseEmails: ['abuse@cloudflare.example'],
      },
    ],
    originHints: [{ ip: '198.51.100.7', organization: 'Hoster', abuseEmails: [] }],
  },
  page: {
    title: 'Sign in',
    metaDescription: 'Sign in to your account',
    headings: ['Welcome back'],
    linkCount: 12,
    formInputCount: 2,
    imageCount: 3,
  },
  indicators: {
    finalUrl: 'https://examp1e-login.com/verify',
    requestedUrl: 'http://examp1e-login.com',
    redirectChain: ['http://examp1e-login.com', 'https://examp1e-login.com/verify'],
    ssdeepHash: '3:abc:def',
    pHash: 'f0e1d2c3b4a59687',
    captureDurationMs: 5400,
    scrapeRoute: {
      method: 'browser',
      uaType: 'desktop',
      proxyType: 'residential',
      country: 'GB',
      exitIp: '203.0.113.5',
      mobileExit: false,
    },
  },
};

/** Whois and certificate undetermined: the four nullable fields are null, not false. */
export const insightsUndetermined = {
  snapshotTimestamp: '2026-08-02T12:00:00.000Z',
  whois: { domain: 'examp1e-login.com', domainAgeDays: null, isNewDomain: null, isExpired: null },
  certificate: { isValid: null },
};

export const detailedIncidentFull = {
  ...incidentFull,
  threatTaxonomy: {
    name: 'Credential phishing',
    description: 'Pages harvesting credentials',
    incidentClass: 'phishing',
    incidentTargetType: { id: 't1', name: 'Brand', description: 'Targets the brand' },
    incidentType: { id: 't2', name: 'Phishing', description: '' },
    incidentThreatType: { id: 't3', name: 'Credential theft', description: 'Steals logins' },
  },
  history: [
    {
      timestamp: '2026-08-02T10:00:00.000Z',
      message: 'Takedown started',
      author: { type: 'analyst' },
    },
    { timestamp: '2026-08-01T10:00:00.000Z', message: 'Incident created' },
  ],
  incidentState,
  registrar: { name: 'Registrar Inc', difficulty: 'medium', description: 'Responsive' },
  hostingProvider: 'Cloudflare',
  blocklists: [
    {
      authority: 'Browser Safe List',
      type: 'warning-banner',
      status: 'listed',
      listedAt: '2026-08-02T11:00:00.000Z',
      link: 'https://lists.example/entry/1',
    },
    { authority: 'Partner DB', type: 'blocklist', status: 'submitted', listedAt: null, link: null },
  ],
  insights: insightsFull,
};

/** Detail with every optional absent and nothing submitted to partners. */
export const detailedIncidentSparse = {
  ...incidentSparse,
  clientId: 'client_1',
  history: [],
  incidentState,
  blocklists: [],
};

export const snapshotFull = {
  id: 'snap_1',
  incidentId: 'inc_abc123',
  type: 'incident_created',
  timestamp: '2026-08-01T10:05:00.000Z',
  description: 'Initial capture',
  dns: {
    A: { records: ['192.0.2.10'], rcode: 'NOERROR' },
    MX: { records: [], rcode: 'NXDOMAIN' },
  },
  whois: {
    domain: 'examp1e-login.com',
    registrarIANAId: '1234',
    createdDate: '2026-07-30',
    updatedDate: '2026-07-31',
    expiryDate: '2027-07-30',
  },
  certificate: {
    issuer: "Let's Encrypt",
    subject: 'examp1e-login.com',
    validFrom: '2026-07-30',
    validTo: '2026-10-28',
    sanEntries: ['examp1e-login.com'],
  },
};

/** "every key inside them is optional, and a sparse object can occur" */
export const snapshotSparse = {
  id: 'snap_2',
  incidentId: 'inc_abc123',
  type: 'incident_status_updated',
  timestamp: '2026-08-02T10:05:00.000Z',
  description: '',
  dns: { A: { rcode: 'SERVFAIL' }, NS: {} },
  whois: {},
  certificate: { issuer: 'Unknown CA' },
};

export const takedownAttempts = {
  id: 'inc_abc123',
  subject: 'examp1e-login.com',
  createdAt: '2026-08-01T10:00:00.000Z',
  takedownAttempts: [
    // started before recording, resolved and outcome known
    { startedAt: null, resolvedAt: '2026-08-01T12:00:00.000Z', outcome: 'failed' },
    // resolved before recording, date unknown
    { startedAt: '2026-08-01T13:00:00.000Z', resolvedAt: null, outcome: 'closed' },
    {
      startedAt: '2026-08-02T09:00:00.000Z',
      resolvedAt: '2026-08-03T10:00:00.000Z',
      outcome: 'success',
    },
    {
      startedAt: '2026-08-04T09:00:00.000Z',
      resolvedAt: '2026-08-04T10:00:00.000Z',
      outcome: 'not_actionable',
    },
    // in progress
    { startedAt: '2026-08-05T09:00:00.000Z', resolvedAt: null, outcome: null },
  ],
};

export const takedownAttemptsEmpty = {
  id: '6650f1c2a1b2c3d4e5f60718',
  subject: '+14155550123',
  createdAt: '2025-01-01T00:00:00.000Z',
  takedownAttempts: [],
};

export const usageNumber = { clientId: 'client_1', clientName: 'Example', remainingCredits: 12 };
export const usageDepleted = { ...usageNumber, remainingCredits: 0 };
export const usageUnlimited = { ...usageNumber, remainingCredits: 'unlimited' };
export const usageNoCredits = { ...usageNumber, remainingCredits: null };

export const userFull = {
  id: 'user_1',
  email: 'ana@example.com',
  name: 'Ana',
  surname: 'Silva',
  roles: ['superuser', 'user'],
  clientId: 'client_1',
  clientName: 'Example',
  mfaEnabled: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-02-01T00:00:00.000Z',
};

export const userSparse = {
  id: 'user_2',
  email: 'bo@example.com',
  name: null,
  surname: null,
  roles: ['parentadmin'],
  mfaEnabled: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

export const clientAccount = { id: 'client_1', name: 'Example', active: true };

export const documentFull = {
  id: 'doc_1',
  clientId: 'client_1',
  client: { id: 'client_1', name: 'Example', parentClientId: 'parent_1' },
  docType: 'loa',
  fileName: 'letter.pdf',
  uploadedBy: { id: 'user_1', email: 'ana@example.com', name: 'Ana', surname: 'Silva' },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  signedUrl: 'https://files.example/doc_1?sig=abc',
};

export const documentNulls = {
  id: 'doc_2',
  clientId: 'client_2',
  client: null,
  docType: 'file',
  fileName: null,
  uploadedBy: null,
  createdAt: null,
  updatedAt: null,
};

export const cursorPagingMiddle = { cursor: 'c1', next: 'c2', limit: 2, count: 2, total: 5 };
export const cursorPagingEndNull = { cursor: 'c2', next: null, limit: 2, count: 1 };
export const cursorPagingEndAbsent = { cursor: 'c2', limit: 2, count: 1 };
export const searchPaging = { limit: 25, count: 1 };
export const offsetPaging = { limit: 200, offset: 0, count: 2, total: 2 };

export const webhookEnvelopeBase = {
  id: 'evt_1',
  timestamp: '2026-08-01T10:00:00.000Z',
  clientId: 'client_1',
};

export const webhookEvents = {
  'webhook.test': { ...webhookEnvelopeBase, event: 'webhook.test', data: {} },
  'incident.created': {
    ...webhookEnvelopeBase,
    event: 'incident.created',
    data: { incidentId: 'inc_1' },
  },
  'incident.status_changed': {
    ...webhookEnvelopeBase,
    event: 'incident.status_changed',
    data: { incidentId: 'inc_1', status: 'takedown_success' },
  },
  'incident.history_created': {
    ...webhookEnvelopeBase,
    event: 'incident.history_created',
    data: { incidentId: 'inc_1', historyEntry: { message: 'Analyst note' } },
  },
  'incident.takedown_updated': {
    ...webhookEnvelopeBase,
    event: 'incident.takedown_updated',
    data: { incidentId: 'inc_1' },
  },
  'incident.action_required': {
    ...webhookEnvelopeBase,
    event: 'incident.action_required',
    data: { incidentId: 'inc_1', waitForClient: 'Please upload a letter of authorisation' },
  },
} as const;

export const webhookSubscription = {
  id: 'wh_1',
  url: 'https://connector.example/webhooks/incident',
  events: ['incident.created', 'incident.status_changed'],
  description: 'Zendesk connector',
  secret: 'whsec_abc',
};
