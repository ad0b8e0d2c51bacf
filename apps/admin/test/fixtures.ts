import type { DeadLetters, FirstRun, Overview } from '../src/api';

export function overviewOf(changes: Partial<Overview['incident']> = {}): Overview {
  return {
    account: { subdomain: 'acme', zendeskUrl: 'http://127.0.0.1:4010/_z/acme' },
    connection: {
      state: 'active',
      grant: 'authorization_code',
      scopes: ['read', 'write'],
      missingScopes: [],
      accessExpiresAt: null,
      refreshExpiresAt: null,
      lastError: null,
      lastErrorAt: null,
    },
    ticketWrites: {
      state: 'ok',
      failure: null,
      recoveringFrom: null,
      waiting: 0,
      oldestWaitingAt: null,
      lateAfterSeconds: 120,
      checkedAt: '2026-11-23T12:00:00.000Z',
    },
    disconnection: null,
    disconnect: { canRemoveNow: true },
    health: {
      lastZendeskWebhookAt: null,
      lastIncidentEventAt: null,
      lastWebhookTestAt: null,
      subscriptions: [],
    },
    setup: { state: 'needs_configuration', requestedAt: null, finishedAt: null, report: null },
    settings: {
      forwardInternalNotes: false,
      solveOnTakedownSuccess: false,
      openTicketsForDetectedIncidents: true,
      newTicketGroupId: null,
      createZendeskViews: true,
    },
    incident: {
      baseUrl: 'http://incident.test',
      clientName: null,
      apiKey: 'not_set',
      clientId: null,
      subClientIds: [],
      ...changes,
    },
  };
}

export const NEW_ACCOUNT: FirstRun = {
  complete: false,
  authorizeUrl: '/install?subdomain=acme',
  steps: [
    {
      id: 'zendesk',
      title: 'Connection to Zendesk',
      state: 'done',
      summary: 'Connected to acme.zendesk.com.',
      next: null,
      action: null,
    },
    {
      id: 'incident_key',
      title: 'Incident API key',
      state: 'todo',
      summary: 'No incident API key is saved yet.',
      next: 'Enter the API key and client id the incident service gave you, and save.',
      action: 'save_incident_key',
    },
    {
      id: 'setup',
      title: 'Setup run',
      state: 'todo',
      summary: 'Setup is never run.',
      next: 'Run setup: it creates the ticket fields, the webhook and the triggers.',
      action: 'run_setup',
    },
    {
      id: 'webhooks',
      title: 'Webhooks confirmed',
      state: 'todo',
      summary: 'No delivery yet.',
      next: 'Send a test delivery.',
      action: 'test_webhooks',
    },
    {
      id: 'sidebar',
      title: 'Sidebar installed',
      state: 'todo',
      summary: 'No agent has opened the incident-desk sidebar yet.',
      next: 'Install the incident-desk app in Zendesk and open any ticket.',
      action: null,
    },
  ],
};

export const LETTERS: DeadLetters = {
  failedForwards: [
    {
      commentId: '777001',
      ticketId: 41,
      ticketUrl: 'https://acme.zendesk.com/agent/tickets/41',
      incidentId: 'inc_forward',
      incidentRef: 'inc_forward',
      incidentUrl: 'http://incident.test/_sandbox/incidents/inc_forward',
      reason: 'InternalServerError: incidents.comment: 500 ServiceUnavailable',
      updatedAt: '2026-11-23T10:00:00.000Z',
      work: 'comment_forward',
      problem: { code: 'http_status', party: 'incident_service', status: 500 },
      canRetry: true,
    },
  ],
  syncFailures: [
    {
      id: '0b9d7a9e-1f53-4b1c-9a39-5b1d3f0f0c11',
      queue: 'ticket-write',
      ticketId: 42,
      ticketUrl: 'https://acme.zendesk.com/agent/tickets/42',
      incidentId: '65f1c0ffee00000000000a01',
      incidentRef: 'inc_x',
      incidentUrl: null,
      reason: 'Zendesk answered 422',
      createdAt: '2026-11-23T10:00:00.000Z',
      work: 'ticket_write',
      problem: { code: 'http_status', party: 'zendesk', status: 422 },
      canRetry: false,
    },
  ],
  failedJobs: [],
};
