import type { EventSink } from '../domain/events';
import { createIncident } from '../domain/report';
import type { TStatus } from '../domain/statuses';
import { OPERATOR_EMAIL_DOMAIN } from '../domain/vocabulary';
import type { IncidentRecord, SnapshotRecord, TakedownAttempt } from './model';
import type { SandboxStore } from './store';

export const DEMO_API_KEY = 'sandbox-demo-key';
export const OTHER_ORG_API_KEY = 'sandbox-other-key';
export const DEMO_PARENT_CLIENT_ID = 'cl_demo_parent';
export const DEMO_RETAIL_CLIENT_ID = 'cl_demo_retail';
export const DEMO_BANK_CLIENT_ID = 'cl_demo_bank';
export const OTHER_ORG_CLIENT_ID = 'cl_other_org';

// Seed timestamps are fixed, not read from the clock, so every seeded run is identical.
const EPOCH = Date.parse('2026-09-01T08:00:00.000Z');
const at = (hours: number) => new Date(EPOCH + hours * 3_600_000).toISOString();

const silent: EventSink = { emit: () => undefined };

interface SeedIncident {
  clientId: string;
  target: {
    incidentType: IncidentRecord['incidentType'];
    subject: string;
    url?: string;
    domain?: string;
  };
  status: TStatus;
  createdHour: number;
  attempts?: TakedownAttempt[];
  extra?: Partial<IncidentRecord>;
  history?: { hour: number; message: string }[];
}

const PHISHING = {
  name: 'Credential phishing',
  description: 'Page imitating the client login to harvest credentials',
  incidentClass: 'phishing',
  incidentTargetType: { id: 'tt_brand', name: 'Brand', description: 'The client brand' },
  incidentType: { id: 'it_phishing', name: 'Phishing', description: '' },
  incidentThreatType: {
    id: 'th_credentials',
    name: 'Credential theft',
    description: 'Harvests logins',
  },
};

function webSnapshots(
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

function seedIncidents(): SeedIncident[] {
  const P = DEMO_PARENT_CLIENT_ID;
  const R = DEMO_RETAIL_CLIENT_ID;
  const B = DEMO_BANK_CLIENT_ID;
  return [
    {
      clientId: P,
      status: 'pending_review',
      createdHour: 300,
      target: {
        incidentType: 'domain',
        subject: 'https://demo-parent-login.example/signin',
        url: 'https://demo-parent-login.example/signin',
        domain: 'demo-parent-login.example',
      },
    },
    {
      clientId: P,
      status: 'case_building',
      createdHour: 290,
      target: { incidentType: 'email', subject: 'support@demo-parent-billing.example' },
    },
    {
      clientId: P,
      status: 'approval_required',
      createdHour: 280,
      target: {
        incidentType: 'domain',
        subject: 'demo-parent-secure.example',
        domain: 'demo-parent-secure.example',
      },
      extra: { threatTaxonomy: PHISHING, incidentClass: 'phishing' },
    },
    {
      clientId: R,
      status: 'takedown_ready',
      createdHour: 270,
      target: { incidentType: 'phone', subject: '+442071838750' },
    },
    {
      clientId: P,
      status: 'pre_weaponised',
      createdHour: 260,
      target: { incidentType: 'ipv4', subject: '198.51.100.23' },
    },
    {
      clientId: P,
      status: 'takedown_in_progress',
      createdHour: 250,
      target: {
        incidentType: 'url',
        subject: 'https://files.example/demo-parent/invoice.zip',
        url: 'https://files.example/demo-parent/invoice.zip',
      },
      attempts: [{ startedAt: at(252), resolvedAt: null, outcome: null }],
      extra: { burnStartedTimestamp: at(252) },
    },
    {
      clientId: P,
      status: 'takedown_success',
      createdHour: 240,
      target: {
        incidentType: 'domain',
        subject: 'https://demo-parent-verify.example/account',
        url: 'https://demo-parent-verify.example/account',
        domain: 'demo-parent-verify.example',
      },
      attempts: [{ startedAt: at(242), resolvedAt: at(250), outcome: 'success' }],
      extra: {
        threatTaxonomy: PHISHING,
        incidentClass: 'phishing',
        burnStartedTimestamp: at(242),
        takedownTimestamp: at(250),
        reportedBy: 'analyst@demo-parent.example',
        registrar: {
          name: 'Example Registrar LLC',
          difficulty: 'medium',
          description: 'Usually responds within a day',
        },
        hostingProvider: 'Example Hosting',
        blocklists: [
          {
            authority: 'Google Safe Browsing',
            type: 'warning-banner',
            status: 'listed',
            listedAt: at(243),
            link: 'https://transparencyreport.example/safe-browsing',
          },
          {
            authority: 'PhishTank',
            type: 'blocklist',
            status: 'listed',
            listedAt: at(244),
            link: null,
          },
        ],
      },
    },
    {
      clientId: P,
      status: 'takedown_attempt_failed',
      createdHour: 230,
      target: {
        incidentType: 'social',
        subject: 'https://instagram.com/demo.parent.support',
        url: 'https://instagram.com/demo.parent.support',
      },
      attempts: [{ startedAt: at(231), resolvedAt: at(236), outcome: 'failed' }],
      extra: { incidentClass: 'infringement', burnStartedTimestamp: at(231) },
    },
    {
      clientId: B,
      status: 'blocklisted',
      createdHour: 220,
      target: {
        incidentType: 'domain',
        subject: 'demo-bank-online.example',
        domain: 'demo-bank-online.example',
      },
      extra: {
        blocklists: [
          {
            authority: 'Microsoft SmartScreen',
            type: 'blocklist',
            status: 'submitted',
            listedAt: null,
            link: null,
          },
        ],
      },
    },
    {
      clientId: P,
      status: 'action_required',
      createdHour: 210,
      target: {
        incidentType: 'domain',
        subject: 'https://demo-parent-careers.example/apply',
        url: 'https://demo-parent-careers.example/apply',
        domain: 'demo-parent-careers.example',
      },
    },
    {
      clientId: P,
      status: 'closed',
      createdHour: 10,
      target: {
        incidentType: 'domain',
        subject: 'old-demo-parent.example',
        domain: 'old-demo-parent.example',
      },
      extra: { takedownTimestamp: at(30) },
    },
    // Reading rules of takedown attempts, one incident each.
    {
      clientId: R,
      status: 'takedown_in_progress',
      createdHour: 200,
      target: {
        incidentType: 'domain',
        subject: 'demo-retail-sale.example',
        domain: 'demo-retail-sale.example',
      },
      attempts: [
        { startedAt: at(201), resolvedAt: at(205), outcome: 'success' },
        { startedAt: at(215), resolvedAt: null, outcome: null },
      ],
    },
    {
      clientId: R,
      status: 'takedown_in_progress',
      createdHour: 190,
      target: {
        incidentType: 'domain',
        subject: 'demo-retail-outlet.example',
        domain: 'demo-retail-outlet.example',
      },
      attempts: [
        { startedAt: at(191), resolvedAt: null, outcome: null },
        { startedAt: at(196), resolvedAt: null, outcome: null },
      ],
    },
    {
      clientId: P,
      status: 'takedown_success',
      createdHour: 180,
      target: {
        incidentType: 'domain',
        subject: 'demo-parent-giveaway.example',
        domain: 'demo-parent-giveaway.example',
      },
      attempts: [
        { startedAt: null, resolvedAt: at(182), outcome: 'failed' },
        { startedAt: at(185), resolvedAt: at(189), outcome: 'success' },
      ],
    },
    {
      clientId: B,
      status: 'closed',
      createdHour: 170,
      target: {
        incidentType: 'domain',
        subject: 'demo-bank-rewards.example',
        domain: 'demo-bank-rewards.example',
      },
      attempts: [{ startedAt: at(171), resolvedAt: null, outcome: 'closed' }],
    },
    {
      clientId: R,
      status: 'approval_required',
      createdHour: 160,
      target: { incidentType: 'email', subject: 'refunds@demo-retail-help.example' },
    },
  ];
}

export function seedDemo(store: SandboxStore): void {
  const s = store.state;
  s.clients.push(
    {
      id: DEMO_PARENT_CLIENT_ID,
      name: 'Demo Parent Co',
      active: true,
      parentClientId: null,
      safeDomain: 'demo-parent.example',
      resolutionsEnabled: true,
      credits: 25,
      creditsExpireAt: null,
      approvalConsumesCredit: true,
    },
    {
      id: DEMO_RETAIL_CLIENT_ID,
      name: 'Demo Retail',
      active: true,
      parentClientId: DEMO_PARENT_CLIENT_ID,
      safeDomain: 'demo-retail.example',
      resolutionsEnabled: true,
      credits: 'unlimited',
      creditsExpireAt: null,
      approvalConsumesCredit: false,
    },
    {
      id: DEMO_BANK_CLIENT_ID,
      name: 'Demo Bank',
      active: true,
      parentClientId: DEMO_PARENT_CLIENT_ID,
      safeDomain: 'demo-bank.example',
      resolutionsEnabled: true,
      credits: null,
      creditsExpireAt: null,
      approvalConsumesCredit: false,
    },
    {
      id: OTHER_ORG_CLIENT_ID,
      name: 'Other Org',
      active: true,
      parentClientId: null,
      safeDomain: 'other-org.example',
      resolutionsEnabled: false,
      credits: 0,
      creditsExpireAt: null,
      approvalConsumesCredit: true,
    },
  );
  s.apiKeys.push(
    {
      key: DEMO_API_KEY,
      clientId: DEMO_PARENT_CLIENT_ID,
      clientIds: [DEMO_PARENT_CLIENT_ID, DEMO_RETAIL_CLIENT_ID, DEMO_BANK_CLIENT_ID],
      scopes: ['incidents:read'],
    },
    {
      key: OTHER_ORG_API_KEY,
      clientId: OTHER_ORG_CLIENT_ID,
      clientIds: [OTHER_ORG_CLIENT_ID],
      scopes: ['incidents:read'],
    },
  );

  for (const seed of seedIncidents()) {
    const incident = createIncident(store, silent, {
      ...seed.target,
      clientId: seed.clientId,
      requestedAction: 'takedown',
      timestamp: at(seed.createdHour),
      source: 'dashboard',
    });
    incident.history = [
      { timestamp: at(seed.createdHour), message: 'Incident reported for takedown' },
    ];
    if (seed.status !== 'pending_review') {
      incident.history.unshift({
        timestamp: at(seed.createdHour + 1),
        message: `Status changed to ${seed.status}`,
      });
      incident.lastHistoryUpdateTimestamp = at(seed.createdHour + 1);
    }
    if (seed.status === 'action_required') {
      incident.history.unshift({
        timestamp: at(seed.createdHour + 2),
        message: 'Please upload a letter of authorisation',
      });
    }
    incident.status = seed.status;
    incident.takedownAttempts = seed.attempts ?? [];
    Object.assign(incident, seed.extra ?? {});
    if (!['email', 'phone', 'ipv4'].includes(incident.incidentType)) {
      incident.snapshots = webSnapshots(
        store,
        incident.id,
        incident.domain ?? incident.subject,
        seed.createdHour,
        seed.status === 'takedown_success',
      );
    }
    incident.incidentState = {
      unresponsive: seed.status === 'takedown_success',
      warningBanner: (incident.blocklists ?? []).some((b) => b.type === 'warning-banner'),
      responsive: seed.status !== 'takedown_success' && seed.status !== 'closed',
      contentRemoved: seed.status === 'takedown_success',
      redirect: false,
      inconclusive: false,
      timestamp: at(seed.createdHour + 6),
    };
  }

  const user = (
    id: string,
    email: string,
    name: string | null,
    surname: string | null,
    roles: ('superuser' | 'parentadmin' | 'user' | 'admin')[],
    clientId: string | null,
    mfa: boolean,
  ) => ({
    id,
    email,
    name,
    surname,
    roles,
    clientId,
    mfaEnabled: mfa,
    createdAt: at(1),
    updatedAt: at(2),
  });
  s.users.push(
    user(
      'usr_parent_admin',
      'dana.admin@demo-parent.example',
      'Dana',
      'Admin',
      ['parentadmin', 'superuser'],
      DEMO_PARENT_CLIENT_ID,
      true,
    ),
    user(
      'usr_parent_user',
      'sam.user@demo-parent.example',
      'Sam',
      null,
      ['user'],
      DEMO_PARENT_CLIENT_ID,
      false,
    ),
    user(
      'usr_retail_super',
      'riley@demo-retail.example',
      'Riley',
      'Stone',
      ['superuser'],
      DEMO_RETAIL_CLIENT_ID,
      true,
    ),
    user(
      'usr_retail_user',
      'no-name@demo-retail.example',
      null,
      null,
      ['user'],
      DEMO_RETAIL_CLIENT_ID,
      false,
    ),
    user(
      'usr_bank_user',
      'alex.bank@demo-bank.example',
      'Alex',
      'Banks',
      ['user'],
      DEMO_BANK_CLIENT_ID,
      false,
    ),
    user(
      'usr_other_user',
      'pat@other-org.example',
      'Pat',
      'Other',
      ['superuser'],
      OTHER_ORG_CLIENT_ID,
      false,
    ),
    // Staff: never returned by /v1/users.
    user(
      'usr_staff_admin',
      'ops@demo-parent.example',
      'Ops',
      'Staff',
      ['admin'],
      DEMO_PARENT_CLIENT_ID,
      true,
    ),
    user(
      'usr_staff_domain',
      `analyst@${OPERATOR_EMAIL_DOMAIN}`,
      'Ana',
      'Lyst',
      ['user'],
      null,
      true,
    ),
  );

  s.documents.push(
    {
      id: 'doc_parent_loa',
      clientId: DEMO_PARENT_CLIENT_ID,
      docType: 'loa',
      fileName: 'letter-of-authorisation.pdf',
      uploadedBy: {
        id: 'usr_parent_admin',
        email: 'dana.admin@demo-parent.example',
        name: 'Dana',
        surname: 'Admin',
      },
      createdAt: at(3),
      updatedAt: at(3),
    },
    {
      id: 'doc_retail_tm',
      clientId: DEMO_RETAIL_CLIENT_ID,
      docType: 'trademark_registration',
      fileName: 'trademark.pdf',
      uploadedBy: null,
      createdAt: at(4),
      updatedAt: null,
    },
    {
      id: 'doc_parent_exec',
      clientId: DEMO_PARENT_CLIENT_ID,
      docType: 'exec_loa',
      fileName: null,
      uploadedBy: { email: 'dana.admin@demo-parent.example' },
      createdAt: null,
      updatedAt: null,
    },
    {
      id: 'doc_bank_file',
      clientId: DEMO_BANK_CLIENT_ID,
      docType: 'file',
      fileName: 'evidence.png',
      uploadedBy: null,
      createdAt: at(5),
      updatedAt: at(6),
    },
    {
      id: 'doc_other_loa',
      clientId: OTHER_ORG_CLIENT_ID,
      docType: 'loa',
      fileName: 'loa.pdf',
      uploadedBy: null,
      createdAt: at(5),
      updatedAt: at(5),
    },
  );
}
