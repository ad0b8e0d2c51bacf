// Both sandboxes in the test process on port 0, seeded for the demo a connector child process
// sets itself up against, with the reads and moves the process tests make through them.
import { signWebhook } from '@incident-desk/incident-api';
import { createIncidentSandbox, type IncidentSandbox } from '@incident-desk/incident-sandbox';
import {
  createZendeskSandbox,
  DEMO_GLOBAL_CLIENT,
  seedDemo,
  type DemoSeed,
  type ZendeskSandbox,
} from '@incident-desk/zendesk-sandbox';
import { eventRefsOfAudit } from '../../src/sync/ticket-writes/write-metadata';
import { eventually } from './eventually';

export interface ProcessSandboxTicket {
  ticket: { id: number; tags: string[]; custom_fields: { id: number; value: unknown }[] };
  comments: { id: number; public: boolean; body: string }[];
  /** Every update of the ticket, oldest first, with its metadata (the connector's event ids). */
  audits: { id: number; metadata: { custom?: unknown } }[];
}

export interface IncidentDelivery {
  id: string;
  event: string;
  incidentId: string | null;
  state: 'pending' | 'delivered' | 'failed';
  /** The envelope id the connector deduplicates on and names in its writes' audit metadata. */
  eventId: string;
}

/** The figures `PUT /_sandbox/accounts/{sub}/rate-limit` takes (the sandbox's README, Limits). */
export type ZendeskLimitName =
  | 'requests_per_minute'
  | 'window_ms'
  | 'update_ticket_per_minute'
  | 'update_ticket_window_ms'
  | 'ticket_updates_per_user'
  | 'ticket_updates_window_ms'
  | 'max_active_jobs';

async function call<T>(url: string, method = 'GET', body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * What a test does through the sandboxes' HTTP control APIs, wherever they run (in this process,
 * or as processes of a release): tickets, their notes, the incident moves and faults. Zendesk's
 * are those of the seeded account (`seed.subdomain`).
 */
export function sandboxControls(zendeskUrl: string, incidentUrl: string, seed: DemoSeed) {
  const zControl = `${zendeskUrl}/_sandbox`;
  const zAccount = `${zControl}/accounts/${seed.subdomain}`;
  const iControl = `${incidentUrl}/_sandbox`;

  const readTicket = (ticketId: number) =>
    call<ProcessSandboxTicket>(`${zAccount}/tickets/${ticketId}`);

  /** The incident the ticket is linked to (tagged incident_linked, its Incident ID set), if it is. */
  const linkedIncident = async (ticketId: number): Promise<string | undefined> => {
    const ticket = await readTicket(ticketId);
    const incidentId = ticket.ticket.custom_fields.find(
      (field) => field.id === seed.incidentFieldId,
    )?.value;
    return ticket.ticket.tags.includes('incident_linked') &&
      typeof incidentId === 'string' &&
      incidentId !== ''
      ? incidentId
      : undefined;
  };

  return {
    zendeskUrl,
    incidentUrl,
    seed,
    readTicket,
    fieldValue(ticket: ProcessSandboxTicket, fieldId: number | null): unknown {
      return ticket.ticket.custom_fields.find((field) => field.id === fieldId)?.value;
    },
    linkedIncident,
    /** Once every ticket is linked: their incidents, in the tickets' order. */
    async linkedIncidents(ticketIds: number[]): Promise<string[]> {
      let linked = 0;
      return eventually(
        'every ticket linked',
        async () => {
          const incidentIds: string[] = [];
          for (const ticketId of ticketIds) {
            const incidentId = await linkedIncident(ticketId);
            if (incidentId !== undefined) incidentIds.push(incidentId);
          }
          linked = incidentIds.length;
          return linked === ticketIds.length ? incidentIds : undefined;
        },
        { progress: () => linked },
      );
    },
    async internalNotes(ticketId: number): Promise<string[]> {
      return (await readTicket(ticketId)).comments.filter((c) => !c.public).map((c) => c.body);
    },
    /**
     * The incident events each of the connector's writes to the ticket applied, one list per write
     * (its audit's metadata), oldest first: an event in two lists was written twice.
     */
    async eventWrites(ticketId: number): Promise<string[][]> {
      return (await readTicket(ticketId)).audits
        .map((audit) => eventRefsOfAudit(audit))
        .filter((events) => events.length > 0);
    },
    /** An end user's web ticket with a threat; `tags` incident_submit fires the report trigger. */
    async createTicket(input: { threat: string; tags?: string[]; subject?: string }) {
      const created = await call<{ ticket: { id: number } }>(`${zAccount}/tickets`, 'POST', {
        requester_id: seed.endUserId,
        subject: input.subject ?? 'Phishing page impersonating us',
        body: 'Please take this down.',
        tags: input.tags ?? ['incident_submit'],
        custom_fields: [{ id: seed.threatFieldId, value: input.threat }],
      });
      return created.ticket.id;
    },
    /** Sends each of the next `count` Zendesk webhook deliveries twice (same invocation). */
    duplicateNextZendeskDeliveries: (count: number) =>
      call(`${zAccount}/webhook-duplicates`, 'POST', { count }),
    zendeskDeliveries: async () =>
      (
        await call<{
          deliveries: { ticket_id: number | null; state: string; duplicate: boolean }[];
        }>(`${zAccount}/webhook-deliveries?wait=true`)
      ).deliveries,
    apiRequests: () =>
      call<{ total: number; by_endpoint: Record<string, number> }>(`${zAccount}/api-requests`),
    resetApiRequests: () => call(`${zAccount}/api-requests`, 'DELETE'),
    /** Sets the account's limits (`PUT …/rate-limit`: those given, their windows afresh). */
    setLimits: (limits: Partial<Record<ZendeskLimitName, number>>) =>
      call(`${zAccount}/rate-limit`, 'PUT', limits),
    /** The 429s the account answered, in all and by limit, since the count last started. */
    rateLimited: () =>
      call<{ total: number; by_limit: Record<string, number> }>(`${zAccount}/rate-limited`),
    resetRateLimited: () => call(`${zAccount}/rate-limited`, 'DELETE'),
    advance: (incidentId: string, body: Record<string, unknown>) =>
      call(`${iControl}/incidents/${encodeURIComponent(incidentId)}/advance`, 'POST', {
        force: true,
        ...body,
      }),
    /** The incident service API requests the sandbox received (all clients), by endpoint. */
    incidentApiRequests: () =>
      call<{ total: number; by_endpoint: Record<string, number> }>(`${iControl}/api-requests`),
    incidentFault: (fault: Record<string, unknown>) => call(`${iControl}/faults`, 'POST', fault),
    incidentFaults: async () => (await call<{ data: unknown[] }>(`${iControl}/faults`)).data,
    clearIncidentFaults: () => call(`${iControl}/faults`, 'DELETE'),
    /** Resolves with the account's Support API request count once it has not moved for `quietMs`. */
    async zendeskQuiet(quietMs = 2_000): Promise<number> {
      let last = -1;
      let since = Date.now();
      return eventually('Zendesk calls settled', async () => {
        const { total } = await call<{ total: number }>(`${zAccount}/api-requests`);
        if (total !== last) {
          last = total;
          since = Date.now();
          return undefined;
        }
        return Date.now() - since >= quietMs ? total : undefined;
      });
    },
  };
}

export type ProcessSandboxes = Awaited<ReturnType<typeof startProcessSandboxes>>;

export async function startProcessSandboxes(
  options: { incidentWebhookDelayMs?: number; requestsPerMinute?: number } = {},
) {
  const incidentSandbox: IncidentSandbox = createIncidentSandbox({
    webhookDelayMs: options.incidentWebhookDelayMs ?? 5,
    // deliveries that meet a connector being restarted are tried again soon
    webhookRetryDelaysMs: [250, 1_000, 2_000, 4_000, 8_000],
  });
  const incident = await incidentSandbox.listen(0);
  const zendeskSandbox: ZendeskSandbox = createZendeskSandbox({
    searchLagMs: 0,
    ...(options.requestsPerMinute ? { requestsPerMinute: options.requestsPerMinute } : {}),
    globalClients: [{ ...DEMO_GLOBAL_CLIENT, redirect_uris: ['http://127.0.0.1/oauth/callback'] }],
    webhooks: { retryDelaysMs: [50, 100, 200] },
  });
  const seed: DemoSeed = seedDemo(zendeskSandbox);
  const zendesk = await zendeskSandbox.listen(0);
  const zendeskUrl = zendesk.url.replace(/\/+$/, '');
  const incidentUrl = incident.url.replace(/\/+$/, '');
  return {
    ...sandboxControls(zendeskUrl, incidentUrl, seed),
    zendeskSandbox,
    incidentSandbox,
    /** Incidents the service holds whose url or subject is `threat`. */
    incidentsFor(threat: string) {
      return incidentSandbox.store.state.incidents.filter(
        (i) => i.url === threat || i.subject === threat,
      );
    },
    incidentDeliveries(incidentId: string): IncidentDelivery[] {
      // either form: the Incident ID field holds the report's inc_ id, deliveries the list id
      const listId =
        incidentSandbox.store.state.incidents.find((i) => i.ref === incidentId)?.id ?? incidentId;
      return incidentSandbox.store.state.deliveries
        .filter((d) => d.incidentId === listId)
        .map((d) => ({
          id: d.id,
          event: d.event,
          incidentId: d.incidentId,
          state: d.state,
          eventId: (JSON.parse(d.body) as { id: string }).id,
        }));
    },
    incidentDeliveriesIdle: () => incidentSandbox.dispatcher.idle(),
    /**
     * Sends an event envelope to the connector the way the incident service does: to the address
     * of the client's subscription, signed with its secret. Returns the HTTP status. With
     * `timeoutMs`, a delivery not answered in time is abandoned (rejects), as the service
     * abandons one not acknowledged within its window.
     */
    async deliverIncidentEvent(
      envelope: Record<string, unknown>,
      clientId = 'cl_demo_parent',
      timeoutMs?: number,
    ) {
      const subscription = incidentSandbox.store.state.webhooks.find(
        (w) => w.clientId === clientId && w.active,
      );
      if (!subscription) throw new Error(`no active subscription of ${clientId}`);
      const body = JSON.stringify({ clientId, timestamp: new Date().toISOString(), ...envelope });
      const response = await fetch(subscription.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...signWebhook({ secret: subscription.secret, body }),
        },
        body,
        ...(timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs) }),
      });
      await response.arrayBuffer();
      return response.status;
    },
    async close() {
      await zendesk.close();
      await incidentSandbox.close();
    },
  };
}
