// The connector's /admin/api, same origin. The session cookie travels by itself (HttpOnly); every
// state-changing call carries the CSRF token the session answer gave.
export interface Session {
  subdomain: string;
  userName: string;
  expiresAt: string;
  csrfToken: string;
}

export interface StepReport {
  step: string;
  target: string;
  outcome: string;
  message?: string;
}

export interface Overview {
  account: { subdomain: string };
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
  health: {
    lastZendeskWebhookAt: string | null;
    lastIncidentEventAt: string | null;
    lastWebhookTestAt: string | null;
  };
  setup: {
    state: string;
    requestedAt: string | null;
    finishedAt: string | null;
    report: { ok: boolean; message: string; steps: StepReport[]; scopeAfter: string | null } | null;
  };
  settings: Settings;
  incident: {
    baseUrl: string | null;
    apiKey: 'set' | 'not_set';
    clientId: string | null;
    subClientIds: string[];
  };
  sidebarSecret: 'set' | 'not_set';
}

export interface Settings {
  forwardInternalNotes: boolean;
  solveOnTakedownSuccess: boolean;
  openTicketsForDetectedIncidents: boolean;
  newTicketGroupId: number | null;
}

export interface DeadLetters {
  syncFailures: {
    id: string;
    queue: string;
    ticketId: number | null;
    incidentId: string | null;
    reason: string;
    createdAt: string;
  }[];
  failedJobs: { queue: string; id: string; failedAt: string | null; reason: string }[];
}

export interface ReconciliationEntry {
  ticketId: number;
  reason: string;
  detail: string | null;
  createdAt: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
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
  saveIncidentConnection: (input: { apiKey?: string; clientId: string; subClientIds: string[] }) =>
    call<{ apiKey: 'set' }>('PUT', '/incident-connection', input),
  rerunSetup: () => call<{ state: string }>('POST', '/setup/rerun'),
  rotateSidebarSecret: () => call<{ secret: string }>('POST', '/sidebar-secret/rotate'),
  deadLetters: () => call<DeadLetters>('GET', '/dead-letters'),
  retrySyncFailure: (id: string) =>
    call<unknown>('POST', `/dead-letters/sync-failures/${encodeURIComponent(id)}/retry`),
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
};
