// Shared set-up of the sync-incident-* tests: a fresh database, both sandboxes on free ports, and
// an AccountContext built directly against them (no accounts module involved).
import { randomUUID } from 'node:crypto';
import { createIncidentClient } from '@incident-desk/incident-api';
import {
  createIncidentSandbox,
  DEMO_API_KEY,
  DEMO_PARENT_CLIENT_ID,
} from '@incident-desk/incident-sandbox';
import { createZendeskSandbox, seedDemo } from '@incident-desk/zendesk-sandbox';
import {
  ZendeskClient,
  type TComment,
  type TTicket,
  type TTicketAudit,
} from '@incident-desk/zendesk-api';
import { eventRefsOfAudit } from '../src/sync/ticket-writes/write-metadata';
import type { AccountContext, AccountSettings } from '../src/accounts/account-context';
import type { IncidentEventJob } from '../src/jobs/incident-event-job';
import { openTestDatabase, type Backend } from './support/test-database';

const DEFAULT_SETTINGS: AccountSettings = {
  forwardInternalNotes: false,
  solveOnTakedownSuccess: false,
  openTicketsForDetectedIncidents: true,
  newTicketGroupId: null,
};

export type Harness = Awaited<ReturnType<typeof startHarness>>;

export async function startHarness(backend: Backend) {
  const db = await openTestDatabase(backend);
  const accountId = randomUUID();
  const subdomain = `acme${backend}`;
  await db.prisma.account.create({ data: { id: accountId, zendeskSubdomain: subdomain } });

  const incidentSandbox = createIncidentSandbox({ webhookDelayMs: 5, webhookRetryDelaysMs: [] });
  const incidentServer = await incidentSandbox.listen(0);
  const zendeskSandbox = createZendeskSandbox({ searchLagMs: 0 });
  const seed = seedDemo(zendeskSandbox, subdomain);
  const zendeskServer = await zendeskSandbox.listen(0);
  const token = zendeskSandbox.issueToken(subdomain, seed.adminId, ['read', 'write']);
  const zendeskBase = `${zendeskServer.url}/_z/${subdomain}`;
  /** Every Zendesk call the handler made, as "METHOD /path" (without the account prefix). */
  const zendeskCalls: string[] = [];
  const zendeskClient = (base: string, bearer: string) =>
    new ZendeskClient({
      baseUrl: base,
      tokenProvider: {
        getAccessToken: async () => bearer,
        refreshAfterUnauthorized: async () => bearer,
      },
      retry: false,
      fetch: (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        zendeskCalls.push(`${init?.method ?? 'GET'} ${url.pathname.replace(/^\/_z\/[^/]+/, '')}`);
        return fetch(input, init);
      },
    });
  const zendesk = zendeskClient(zendeskBase, token);

  // A second installation: its own database account and its own Zendesk account.
  const otherAccountId = randomUUID();
  await db.prisma.account.create({
    data: { id: otherAccountId, zendeskSubdomain: `${subdomain}other` },
  });
  const otherSeed = seedDemo(zendeskSandbox, `${subdomain}other`);
  const otherZendesk = zendeskClient(
    `${zendeskServer.url}/_z/${subdomain}other`,
    zendeskSandbox.issueToken(`${subdomain}other`, otherSeed.adminId, ['read', 'write']),
  );

  function context(
    settings: Partial<AccountSettings> = {},
    account: Partial<Pick<AccountContext, 'noteLocale' | 'canReadAudits'>> = {},
  ): AccountContext {
    return {
      accountId,
      subdomain,
      zendesk,
      incidents: (clientId) =>
        createIncidentClient({
          baseURL: incidentServer.url,
          apiKey: DEMO_API_KEY,
          ...(clientId ? { clientId } : {}),
          retry: false,
        }),
      fields: {
        threat: seed.threatFieldId,
        incidentId: seed.incidentFieldId,
        status: seed.statusFieldId,
      },
      settings: { ...DEFAULT_SETTINGS, ...settings },
      noteLocale: account.noteLocale ?? 'en',
      canReadAudits: account.canReadAudits ?? true,
    };
  }

  let counter = 0;
  const uid = () => `${Date.now().toString(36)}${(counter += 1)}`;

  async function zendeskGet<T>(path: string): Promise<T> {
    const response = await fetch(`${zendeskBase}${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
    return (await response.json()) as T;
  }

  function otherContext(settings: Partial<AccountSettings> = {}): AccountContext {
    return {
      ...context(settings),
      accountId: otherAccountId,
      subdomain: `${subdomain}other`,
      zendesk: otherZendesk,
      fields: {
        threat: otherSeed.threatFieldId,
        incidentId: otherSeed.incidentFieldId,
        status: otherSeed.statusFieldId,
      },
    };
  }

  return {
    db,
    accountId,
    otherAccountId,
    otherContext,
    zendeskCalls,
    /** The account's one group ("Support"). */
    groupId: [...zendeskSandbox.state.account(subdomain)!.groups.keys()][0]!,
    seed,
    zendesk,
    /** A client of the account whose requests go through `fetchImpl` (to lose answers, count calls). */
    zendeskWith(fetchImpl: typeof fetch): ZendeskClient {
      return new ZendeskClient({
        baseUrl: zendeskBase,
        tokenProvider: {
          getAccessToken: async () => token,
          refreshAfterUnauthorized: async () => token,
        },
        retry: false,
        fetch: fetchImpl,
      });
    },
    zendeskSandbox,
    incidentSandbox,
    incidentUrl: incidentServer.url,
    context,
    uid,

    /** A ticket linked to a fresh incident id (no incident in the sandbox needed). */
    async linkedTicket(options: { incidentId?: string; reportRef?: string } = {}) {
      const incidentId = options.incidentId ?? `ev${uid()}`;
      const created = await zendesk.tickets.create({
        subject: 'Phishing report',
        comment: { body: 'Please look at this site.' },
        custom_fields: [{ id: seed.incidentFieldId, value: options.reportRef ?? incidentId }],
        tags: ['incident_linked'],
      });
      const ticketId = created.ticket.id;
      await db.prisma.incidentLink.create({
        data: {
          accountId,
          incidentId,
          ticketId: BigInt(ticketId),
          reportRef: options.reportRef ?? null,
        },
      });
      return { incidentId, ticketId };
    },

    job(
      event: string,
      data: Record<string, unknown> | undefined,
      envelope: Record<string, unknown> = {},
    ): IncidentEventJob {
      return {
        accountId,
        receivedAt: new Date().toISOString(),
        event: {
          id: `evt_${uid()}`,
          event,
          timestamp: new Date().toISOString(),
          clientId: DEMO_PARENT_CLIENT_ID,
          ...(data === undefined ? {} : { data }),
          ...envelope,
        },
      };
    },

    ticket: async (ticketId: number): Promise<TTicket> => zendesk.tickets.show(ticketId),
    fieldValue(ticket: TTicket, fieldId: number): unknown {
      return ticket.custom_fields.find((field) => field.id === fieldId)?.value ?? null;
    },
    /** Internal notes written by the connector, oldest first. */
    async notes(ticketId: number): Promise<string[]> {
      const body = await zendeskGet<{ comments: TComment[] }>(
        `/api/v2/tickets/${ticketId}/comments.json?sort_order=asc`,
      );
      return body.comments
        .filter((comment) => !comment.public && (comment.body ?? '').startsWith('[incident-desk]'))
        .map((comment) => comment.body ?? '');
    },
    /**
     * The incident events each of the connector's writes to the ticket applied, one list per write
     * (its audit's metadata), oldest first: an event in two lists was written twice.
     */
    async eventWrites(ticketId: number): Promise<string[][]> {
      const writes: string[][] = [];
      let path: string | null = `/api/v2/tickets/${ticketId}/audits.json?page[size]=100`;
      while (path) {
        const page: {
          audits: TTicketAudit[];
          meta: { has_more: boolean; after_cursor: string | null };
        } = await zendeskGet(path);
        for (const audit of page.audits) {
          const events = eventRefsOfAudit(audit);
          if (events.length > 0) writes.push(events);
        }
        path = page.meta.has_more
          ? `/api/v2/tickets/${ticketId}/audits.json?page[size]=100&page[after]=${encodeURIComponent(page.meta.after_cursor ?? '')}`
          : null;
      }
      return writes;
    },
    async comments(ticketId: number): Promise<TComment[]> {
      return (
        await zendeskGet<{ comments: TComment[] }>(`/api/v2/tickets/${ticketId}/comments.json`)
      ).comments;
    },
    async allTickets(): Promise<TTicket[]> {
      return (await zendeskGet<{ tickets: TTicket[] }>('/api/v2/tickets.json?per_page=100'))
        .tickets;
    },
    /** Seeds an incident in the incident sandbox (no events) and returns its record. */
    async seedIncident(body: Record<string, unknown>): Promise<{ id: string; ref: string }> {
      const response = await fetch(`${incidentServer.url}/_sandbox/incidents`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: DEMO_PARENT_CLIENT_ID, emitEvents: false, ...body }),
      });
      if (!response.ok)
        throw new Error(`seed incident: ${response.status} ${await response.text()}`);
      return (await response.json()) as { id: string; ref: string };
    },
    /** The incident sandbox's control API (`/_sandbox<path>`): listings, attempts, snapshots... */
    async incidentControl(path: string, body: Record<string, unknown>): Promise<unknown> {
      const response = await fetch(`${incidentServer.url}/_sandbox${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok)
        throw new Error(`incident control ${path}: ${response.status} ${await response.text()}`);
      return response.json();
    },
    /** Injects a Zendesk sandbox fault for this account (see the sandbox README). */
    async zendeskFault(fault: Record<string, unknown>): Promise<void> {
      const response = await fetch(`${zendeskServer.url}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ subdomain, ...fault }),
      });
      if (!response.ok)
        throw new Error(`zendesk fault: ${response.status} ${await response.text()}`);
    },
    /** Removes every injected Zendesk sandbox fault. */
    async clearZendeskFaults(): Promise<void> {
      const response = await fetch(`${zendeskServer.url}/_sandbox/faults`, { method: 'DELETE' });
      if (!response.ok) throw new Error(`clear faults: ${response.status}`);
    },
    /** The Zendesk sandbox's control API for this account (`/_sandbox/accounts/{sub}<path>`). */
    async zendeskControl(method: string, path: string, body?: unknown): Promise<unknown> {
      const response = await fetch(`${zendeskServer.url}/_sandbox/accounts/${subdomain}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return response.status === 204 ? null : response.json();
    },
    async control(path: string, body: unknown): Promise<unknown> {
      const response = await fetch(`${incidentServer.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return response.json();
    },

    async close() {
      await incidentServer.close();
      await incidentSandbox.close();
      await zendeskServer.close();
      await db.dispose();
    },
  };
}
