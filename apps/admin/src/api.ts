// The connector's /admin/api, same origin. The session cookie travels by itself (HttpOnly); every
// state-changing call carries the CSRF token the session answer gave.
import type {
  AccountDisconnection,
  DisconnectResult,
  FailureDescription,
  SetupOutcomeCodes,
  TakedownAnalytics,
  TicketWriteHealth,
  TUnlinkedWhy,
  TZendeskWebhookTest,
} from '@incident-desk/admin-contract';
export interface Session {
  subdomain: string;
  userName: string;
  /** The page's language: the admin's Zendesk locale (`fr`), English for any other. */
  locale: string;
  expiresAt: string;
  csrfToken: string;
}

interface StepReport {
  step: string;
  target: string;
  outcome: string;
  message?: string;
}

export interface Overview {
  /** `zendeskUrl`: where the connector reaches the account's Zendesk (a local sandbox in the demo). */
  account: { subdomain: string; zendeskUrl: string };
  connection: {
    state: 'active' | 'reauthorization_required' | 'not_connected';
    grant: string | null;
    scopes: string[];
    missingScopes: string[];
    accessExpiresAt: string | null;
    refreshExpiresAt: string | null;
    lastError: string | null;
    lastErrorAt: string | null;
  };
  /** Whether incident changes reach the account's tickets. */
  ticketWrites: TicketWriteHealth;
  /** Set when the account was found gone from Zendesk (or a disconnect did not finish). */
  disconnection: AccountDisconnection | null;
  /** Whether Disconnect can remove setup's objects now, or Zendesk must authorise it first. */
  disconnect: { canRemoveNow: boolean };
  health: {
    lastZendeskWebhookAt: string | null;
    lastIncidentEventAt: string | null;
    lastWebhookTestAt: string | null;
    /** One per incident-service client subscription. */
    subscriptions: {
      clientId: string;
      subscribedAt: string;
      lastEventAt: string | null;
      lastWebhookTestAt: string | null;
    }[];
  };
  setup: {
    state: string;
    requestedAt: string | null;
    finishedAt: string | null;
    /** `message`: the connector's English; the codes are absent from reports older than them. */
    report:
      | (Partial<SetupOutcomeCodes> & {
          ok: boolean;
          message: string;
          steps: StepReport[];
          scopeAfter: string | null;
        })
      | null;
  };
  settings: Settings;
  incident: {
    baseUrl: string | null;
    clientName: string | null;
    apiKey: 'set' | 'not_set';
    clientId: string | null;
    subClientIds: string[];
  };
}

export interface Settings {
  forwardInternalNotes: boolean;
  solveOnTakedownSuccess: boolean;
  openTicketsForDetectedIncidents: boolean;
  newTicketGroupId: number | null;
  /** Setup creates the two shared queue views in Zendesk. */
  createZendeskViews: boolean;
}

/** What a dead letter says about itself, in codes: what failed (and so what Retry does), and why. */
type Described = FailureDescription;

interface SyncFailure extends Described {
  id: string;
  queue: string;
  ticketId: number | null;
  ticketUrl: string | null;
  incidentId: string | null;
  /** What the ticket's Incident ID field holds (the report's `inc_` reference), as agents know it. */
  incidentRef: string | null;
  /** Null unless the connector knows where incidents are seen (INCIDENT_CONSOLE_URL). */
  incidentUrl: string | null;
  reason: string;
  createdAt: string;
  canRetry: boolean;
}

interface FailedForward extends Described {
  commentId: string;
  ticketId: number;
  ticketUrl: string;
  incidentId: string;
  incidentRef: string;
  incidentUrl: string | null;
  reason: string;
  updatedAt: string;
  canRetry: boolean;
}

interface FailedJob extends Described {
  queue: string;
  id: string;
  failedAt: string | null;
  reason: string;
}

export interface DeadLetters {
  syncFailures: SyncFailure[];
  failedForwards: FailedForward[];
  failedJobs: FailedJob[];
}

export interface ReconciliationEntry {
  ticketId: number;
  ticketUrl: string;
  reason: string;
  /** The connector's English; `why` says the same in codes (null for older entries). */
  detail: string | null;
  why?: TUnlinkedWhy | null;
  createdAt: string;
}

type StepAction = 'save_incident_key' | 'run_setup' | 'test_webhooks' | 'authorize';

export interface ChecklistStep {
  id: 'zendesk' | 'incident_key' | 'setup' | 'webhooks' | 'sidebar';
  title: string;
  state: 'done' | 'todo' | 'waiting';
  summary: string;
  next: string | null;
  action: StepAction | null;
}

export interface FirstRun {
  complete: boolean;
  steps: ChecklistStep[];
  authorizeUrl: string;
}

export interface ZendeskGroup {
  id: number;
  name: string;
}

export interface IncidentConnectionInput {
  apiKey?: string;
  clientId: string;
  subClientIds: string[];
}

/** GET /admin/api/analytics: the account's takedown analytics. */
export type Analytics = TakedownAnalytics;

export type AnalyticsChart =
  | 'reports-per-week'
  | 'time-to-takedown'
  | 'success-rate'
  | 'blocklist-coverage'
  | 'credits'
  | 'waiting-on-customer';

/** The CSV download of one chart's numbers (served by the connector, same session). */
export function analyticsCsvUrl(chart: AnalyticsChart, client: string | null): string {
  const query = new URLSearchParams({ chart, ...(client ? { client } : {}) });
  return `/admin/api/analytics.csv?${query}`;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
  }

  /** The API's error code, e.g. api_key_refused. */
  get code(): string | undefined {
    const error = this.body.error as { code?: unknown } | undefined;
    return typeof error?.code === 'string' ? error.code : undefined;
  }
}

let csrfToken = '';

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`/admin/api${path}`, {
    method,
    credentials: 'same-origin',
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(method === 'GET' ? {} : { 'x-csrf-token': csrfToken }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (!response.ok) {
    const error = json.error as { message?: unknown } | undefined;
    throw new ApiError(
      response.status,
      typeof error?.message === 'string' ? error.message : `HTTP ${response.status}`,
      json,
    );
  }
  return json as T;
}

export const api = {
  async session(): Promise<Session> {
    const session = await call<Session>('GET', '/session');
    csrfToken = session.csrfToken;
    return session;
  },
  signOut: () => call<void>('POST', '/sign-out'),
  overview: () => call<Overview>('GET', '/overview'),
  saveSettings: (settings: Partial<Settings>) => call<Settings>('PUT', '/settings', settings),
  firstRun: () => call<FirstRun>('GET', '/first-run'),
  zendeskGroups: () => call<{ groups: ZendeskGroup[] }>('GET', '/zendesk-groups'),
  testWebhooks: () =>
    call<{
      requested: string[];
      /** The clients whose subscription the incident service would not test. */
      failed: { clientId: string }[];
      zendesk: TZendeskWebhookTest;
    }>('POST', '/webhooks/test'),
  retryTicketWrites: () =>
    call<{ woken: number; pausedUntil: string | null }>('POST', '/ticket-writes/retry'),
  saveIncidentConnection: (input: IncidentConnectionInput) =>
    call<{ apiKey: 'set'; clientId: string; clientName: string; setup: { state: string } }>(
      'PUT',
      '/incident-connection',
      input,
    ),
  rerunSetup: () => call<{ state: string }>('POST', '/setup/rerun'),
  disconnect: (deleteTicketFields: boolean) =>
    call<DisconnectResult>('POST', '/disconnect', { deleteTicketFields }),
  deadLetters: () => call<DeadLetters>('GET', '/dead-letters'),
  retrySyncFailure: (id: string) =>
    call<unknown>('POST', `/dead-letters/sync-failures/${encodeURIComponent(id)}/retry`),
  retryForward: (commentId: string) =>
    call<{ message: string }>(
      'POST',
      `/dead-letters/comment-forwards/${encodeURIComponent(commentId)}/retry`,
    ),
  retryFailedJob: (queue: string, id: string) =>
    call<unknown>(
      'POST',
      `/dead-letters/jobs/${encodeURIComponent(queue)}/${encodeURIComponent(id)}/retry`,
    ),
  reconciliation: () => call<{ entries: ReconciliationEntry[] }>('GET', '/reconciliation'),
  link: (ticketId: number, incidentId: string) =>
    call<{ message: string }>('POST', `/reconciliation/${ticketId}/link`, { incidentId }),
  retryLink: (ticketId: number) =>
    call<{ message: string }>('POST', `/reconciliation/${ticketId}/retry`),
  analytics: (client: string | null) =>
    call<Analytics>('GET', `/analytics${client ? `?${new URLSearchParams({ client })}` : ''}`),
};
