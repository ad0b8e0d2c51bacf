// The demo's incidents: one per status and kind of target across the demo's clients, with their
// history, takedown attempts, captures and state.
import type { EventSink } from '../domain/events';
import { createIncident } from '../domain/report';
import type { TStatus } from '../domain/statuses';
import type { IncidentRecord, TakedownAttempt } from './model';
import { DEMO_BANK_CLIENT_ID, DEMO_PARENT_CLIENT_ID, DEMO_RETAIL_CLIENT_ID } from './seed-accounts';
import { at } from './seed-clock';
import { webSnapshots } from './seed-snapshots';
import type { SandboxStore } from './store';

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

function seedIncidentList(): SeedIncident[] {
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

export function seedIncidents(store: SandboxStore): void {
  for (const seed of seedIncidentList()) {
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
}
