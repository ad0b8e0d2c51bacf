// Twelve weeks of past incidents for the demo's clients, so the connector's takedown analytics
// have something to draw on first start: takedowns across registrars and hosting providers, some
// failed or closed, blocklist listings, and incidents waiting on the customer. Dated back from the
// sandbox clock when seeded (the analytics look at the last weeks); the content is fixed (no
// chance), so two seeds on the same day are identical.
import type { EventSink } from '../domain/events';
import { createIncident } from '../domain/report';
import type { TStatus } from '../domain/statuses';
import type { BlocklistListing, IncidentRecord, TakedownAttempt } from './model';
import { DEMO_BANK_CLIENT_ID, DEMO_PARENT_CLIENT_ID, DEMO_RETAIL_CLIENT_ID } from './seed-accounts';
import type { SandboxStore } from './store';

const silent: EventSink = { emit: () => undefined };

const REGISTRARS = [
  { name: 'Example Registrar LLC', difficulty: 'medium' },
  { name: 'FastDomains Inc.', difficulty: 'easy' },
  { name: 'Offshore Names Ltd', difficulty: 'hard' },
  { name: 'Registrar of Tests GmbH', difficulty: 'medium' },
];
const HOSTS = ['Example Hosting', 'CloudBox', 'BulletProof Host', 'Static Pages Co'];
const AUTHORITIES = ['Google Safe Browsing', 'PhishTank', 'Microsoft SmartScreen'];
const CLIENTS = [
  DEMO_PARENT_CLIENT_ID,
  DEMO_PARENT_CLIENT_ID,
  DEMO_RETAIL_CLIENT_ID,
  DEMO_BANK_CLIENT_ID,
];
const TYPES: IncidentRecord['incidentType'][] = ['domain', 'domain', 'url', 'social', 'email'];
/** Takedown hours per registrar: the hard one is slow. */
const HOURS = [
  [6, 20, 30],
  [3, 9, 15],
  [70, 120, 200],
  [18, 40, 60],
];

/** The nth incident's fate, in a fixed cycle. */
const FATES: TStatus[] = [
  'takedown_success',
  'takedown_success',
  'takedown_attempt_failed',
  'takedown_success',
  'blocklisted',
  'takedown_success',
  'action_required',
  'closed',
  'takedown_in_progress',
  'takedown_success',
];

export function seedHistory(store: SandboxStore, perWeek = [3, 4, 2, 5, 3, 4, 6, 3, 4, 5, 3, 2]) {
  const nowMs = store.now() ? Date.parse(store.now()) : Date.now();
  const hour = 3_600_000;
  let n = 0;
  perWeek.forEach((count, weeksAgo) => {
    for (let i = 0; i < count; i += 1, n += 1) {
      const reportedMs = nowMs - (weeksAgo * 7 + 1 + ((i * 2) % 6)) * 24 * hour - (n % 9) * hour;
      const at = (offsetHours: number) => new Date(reportedMs + offsetHours * hour).toISOString();
      const status = FATES[n % FATES.length]!;
      const type = TYPES[n % TYPES.length]!;
      const r = n % REGISTRARS.length;
      const host = `history-${n}-demo.example`;
      const subject =
        type === 'email'
          ? `billing${n}@${host}`
          : type === 'social'
            ? `https://social.example/demo.history.${n}`
            : type === 'url'
              ? `https://${host}/login`
              : host;
      const incident = createIncident(store, silent, {
        clientId: CLIENTS[n % CLIENTS.length]!,
        incidentType: type,
        subject,
        ...(type === 'domain' || type === 'url' ? { domain: host } : {}),
        ...(type === 'url' || type === 'social' ? { url: subject } : {}),
        requestedAction: 'takedown',
        timestamp: at(0),
        source: 'api',
      });
      const takedownHours = HOURS[r]![n % 3]!;
      const attempts: TakedownAttempt[] = [];
      let takedownTimestamp: string | undefined;
      if (status === 'takedown_success') {
        if (n % 4 === 3) attempts.push({ startedAt: at(2), resolvedAt: at(4), outcome: 'failed' });
        attempts.push({ startedAt: at(5), resolvedAt: at(takedownHours), outcome: 'success' });
        takedownTimestamp = at(takedownHours);
      } else if (status === 'takedown_attempt_failed') {
        attempts.push({ startedAt: at(3), resolvedAt: at(40), outcome: 'failed' });
      } else if (status === 'closed') {
        attempts.push({ startedAt: at(3), resolvedAt: at(30), outcome: 'not_actionable' });
      } else if (status === 'takedown_in_progress') {
        attempts.push({ startedAt: at(4), resolvedAt: null, outcome: null });
      }
      const blocklists: BlocklistListing[] =
        n % 3 === 2
          ? []
          : AUTHORITIES.slice(0, 1 + (n % 3)).map((authority, k) => ({
              authority,
              type: k === 0 ? 'warning-banner' : 'blocklist',
              status: k === 1 && n % 2 ? 'submitted' : 'listed',
              listedAt: k === 1 && n % 2 ? null : at(2 + k),
              link: null,
            }));
      const changed = status === 'takedown_success' ? at(takedownHours) : at(6);
      Object.assign(incident, {
        status,
        takedownAttempts: attempts,
        ...(takedownTimestamp ? { takedownTimestamp, burnStartedTimestamp: at(5) } : {}),
        registrar: { name: REGISTRARS[r]!.name, difficulty: REGISTRARS[r]!.difficulty },
        hostingProvider: HOSTS[(n + (n >> 2)) % HOSTS.length],
        blocklists: type === 'email' ? [] : blocklists,
        lastHistoryUpdateTimestamp: changed,
        history: [
          {
            timestamp: changed,
            message:
              status === 'action_required'
                ? 'Please upload a letter of authorisation'
                : `Status changed to ${status}`,
          },
          { timestamp: at(0), message: 'Incident reported for takedown' },
        ],
      });
    }
  });
}
