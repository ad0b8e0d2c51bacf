import type { TStatus } from '../domain/statuses';
import type {
  TAttemptOutcome,
  TDocType,
  TIncidentType,
  TUserRole,
  TWebhookEvent,
} from '../domain/vocabulary';

type TCredits = number | 'unlimited' | null;

export interface ClientRecord {
  id: string;
  name: string;
  active: boolean;
  parentClientId: string | null;
  safeDomain: string;
  /** Resolution history (GET /v1/incidents/resolutions) is enabled per account. */
  resolutionsEnabled: boolean;
  credits: TCredits;
  /** ISO date after which remaining credits no longer count. */
  creditsExpireAt: string | null;
  /** Whether an approval consumes one credit on this client's plan. */
  approvalConsumesCredit: boolean;
}

export interface ApiKeyRecord {
  key: string;
  /** The client the key represents; the default clientId. */
  clientId: string;
  /** Every client the key may act for, its own included. */
  clientIds: string[];
  scopes: string[];
}

export interface HistoryEntry {
  timestamp: string;
  message: string;
  author?: { type: 'client' | 'analyst' | 'system'; email?: string; name?: string };
}

interface IncidentStateRecord {
  unresponsive: boolean;
  warningBanner: boolean;
  responsive: boolean;
  contentRemoved: boolean;
  redirect: boolean;
  inconclusive: boolean;
  timestamp: string;
}

export interface BlocklistListing {
  authority: string;
  type: 'warning-banner' | 'blocklist';
  status: 'listed' | 'submitted';
  listedAt: string | null;
  link: string | null;
}

export interface SnapshotRecord {
  id: string;
  incidentId: string;
  type: string;
  timestamp: string;
  description: string;
  dns?: Record<string, { records?: string[]; rcode?: string }>;
  whois?: Record<string, string>;
  certificate?: Record<string, unknown>;
  /** Derived insight categories this capture carried; absent = not captured. */
  insights?: Record<string, unknown>;
}

export interface TakedownAttempt {
  startedAt: string | null;
  resolvedAt: string | null;
  outcome: TAttemptOutcome | null;
  /** When the sandbox recorded it (never on the wire): resolutions show it attemptVisibilityLagMs later. */
  recordedAt?: string;
}

interface ThreatTaxonomy {
  name: string;
  description: string;
  incidentClass?: string;
  incidentTargetType?: { id: string; name: string; description: string };
  incidentType?: { id: string; name: string; description: string };
  incidentThreatType?: { id: string; name: string; description: string };
}

export interface IncidentRecord {
  /** List identifier (opaque). */
  id: string;
  /** The inc_ reference a report returns; accepted wherever `id` is. */
  ref: string;
  clientId: string;
  safeDomain: string;
  incidentType: TIncidentType;
  subject: string;
  url?: string;
  domain?: string;
  source: string;
  status: TStatus;
  timestamp: string;
  lastHistoryUpdateTimestamp?: string;
  burnStartedTimestamp?: string;
  takedownTimestamp?: string;
  reportedBy?: string;
  threatTaxonomy?: ThreatTaxonomy;
  incidentClass: string;
  /** Newest first. */
  history: HistoryEntry[];
  incidentState: IncidentStateRecord;
  registrar?: { name?: string; difficulty?: string; description?: string };
  hostingProvider?: string;
  blocklists: BlocklistListing[];
  /** Newest first. */
  snapshots: SnapshotRecord[];
  /** Oldest first. */
  takedownAttempts: TakedownAttempt[];
  requestedAction: 'takedown' | 'monitor';
  attachments: { fileName: string; size: number; contentType: string }[];
  comments: { timestamp: string; comment: string; author: string }[];
  /** Control switch: reading this incident fails, so any resolutions page holding it fails. */
  unreadable: boolean;
}

export interface UserRecord {
  id: string;
  email: string;
  name: string | null;
  surname: string | null;
  roles: TUserRole[];
  clientId: string | null;
  mfaEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface DocumentRecord {
  id: string;
  clientId: string;
  docType: TDocType;
  fileName: string | null;
  uploadedBy: { id?: string; email?: string; name?: string; surname?: string } | null;
  createdAt: string | null;
  updatedAt: string | null;
}

export interface WebhookSubscriptionRecord {
  id: string;
  clientId: string;
  url: string;
  events: TWebhookEvent[];
  description: string;
  active: boolean;
  secret: string;
  createdAt: string;
  updatedAt: string;
}

interface DeliveryAttempt {
  at: string;
  status: number | null;
  error: string | null;
  durationMs: number;
  /** The start of a refusing receiver's answer (its reason), as delivery logs show it. */
  response?: string;
}

export interface DeliveryRecord {
  id: string;
  subscriptionId: string;
  clientId: string;
  event: TWebhookEvent;
  incidentId: string | null;
  /** The exact bytes sent, so a retry repeats the same event id and body. */
  body: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: DeliveryAttempt[];
  nextAttemptAt: string | null;
  createdAt: string;
}

interface SandboxSettings {
  /** How a duplicate report answers: 409, or the older 200 without id and url. */
  duplicateResponse: 'conflict' | 'legacy';
  /** `sometimes` drops optional webhook payload fields on every third event, as the spec warns receivers. */
  omitOptionalPayloadFields: 'never' | 'sometimes' | 'always';
  /** Chance (0 to 1) that incident.status_changed omits data.status ("omitted when not yet populated"). */
  statusOmitRate: number;
  /** Extra random wait of 0 to this many ms before each event's first delivery, so events arrive out of emission order. */
  deliveryJitterMs: number;
  /** A new takedown attempt shows on the resolutions endpoint this long after the single incident (the spec: a few minutes). */
  attemptVisibilityLagMs: number;
}

/** The settable fidelity behaviours and their defaults (deterministic: off). */
export type TFidelitySettings = Pick<
  SandboxSettings,
  'statusOmitRate' | 'deliveryJitterMs' | 'attemptVisibilityLagMs'
>;
export const DEFAULT_FIDELITY: TFidelitySettings = {
  statusOmitRate: 0,
  deliveryJitterMs: 0,
  attemptVisibilityLagMs: 0,
};

export interface SandboxState {
  version: 1;
  counters: Record<string, number>;
  settings: SandboxSettings;
  clients: ClientRecord[];
  apiKeys: ApiKeyRecord[];
  incidents: IncidentRecord[];
  users: UserRecord[];
  documents: DocumentRecord[];
  webhooks: WebhookSubscriptionRecord[];
  deliveries: DeliveryRecord[];
}
