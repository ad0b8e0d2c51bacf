// Both sandboxes in-process on port 0, a fresh database, and an AccountContext built directly on
// them, for the ticket -> incident sync tests.
import { createIncidentClient, type IncidentClient } from '@incident-desk/incident-api';
import { createIncidentSandbox, type IncidentSandbox } from '@incident-desk/incident-sandbox';
import { ZendeskClient } from '@incident-desk/zendesk-api';
import {
  createZendeskSandbox,
  seedDemo,
  type DemoSeed,
  type ZendeskSandbox,
} from '@incident-desk/zendesk-sandbox';
import type { AccountContext, AccountSettings } from '../../src/accounts/account-context';
import type { TicketEventJob } from '../../src/jobs/ticket-event-job';
import { openTestDatabase, type Backend } from './test-database';

export const SYNC_ACCOUNT = '00000000-0000-4000-8000-0000000000a1';
const DEMO_KEY = 'sandbox-demo-key';

interface SandboxIncident {
  id: string;
  ref: string;
  subject: string;
  incidentType: string;
  url?: string;
  status: string;
  reportedBy?: string;
  requestedAction: 'takedown' | 'monitor';
  attachments: { fileName: string; size: number; contentType: string }[];
  comments: { comment: string; author: string }[];
}

interface SandboxComment {
  id: number;
  public: boolean;
  author_id: number;
  body: string;
  plain_body: string;
}

interface SandboxTicket {
  id: number;
  tags: string[];
  custom_fields: { id: number; value: unknown }[];
}

export interface TicketSyncHarness {
  db: Awaited<ReturnType<typeof openTestDatabase>>;
  ctx: AccountContext;
  settings: AccountSettings;
  demo: DemoSeed;
  /** The Zendesk user the connector acts as: an agent who also answers tickets himself. */
  connectorUserId: number;
  zendeskUrl: string;
  incidentUrl: string;
  zendeskSandbox: ZendeskSandbox;
  incidentSandbox: IncidentSandbox;
  createTicket(input: {
    threat?: string;
    body?: string;
    requesterId?: number;
    tags?: string[];
    /** Files on the ticket's first comment (the end user's original message). */
    attachments?: { file_name: string; content_type: string; content: string }[];
  }): Promise<number>;
  addComment(
    ticketId: number,
    input: {
      authorId: number;
      body: string;
      public: boolean;
      attachments?: { file_name: string; content_type: string; content: string }[];
    },
  ): Promise<number>;
  addTags(ticketId: number, tags: string[]): Promise<void>;
  readTicket(ticketId: number): Promise<{ ticket: SandboxTicket; comments: SandboxComment[] }>;
  /** Internal notes (newest last) whose text contains `text`. */
  notesContaining(ticketId: number, text: string): Promise<SandboxComment[]>;
  incidents(): Promise<SandboxIncident[]>;
  incidentsWithSubject(subject: string): Promise<SandboxIncident[]>;
  zendeskFault(fault: Record<string, unknown>): Promise<void>;
  incidentFault(fault: Record<string, unknown>): Promise<void>;
  clearFaults(): Promise<void>;
  job(body: TicketEventJob['body']): TicketEventJob;
  close(): Promise<void>;
}

async function call<T>(url: string, method: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok)
    throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

const toSandboxFile = (file: { file_name: string; content_type: string; content: string }) => ({
  file_name: file.file_name,
  content_type: file.content_type,
  content_base64: Buffer.from(file.content).toString('base64'),
});

export async function startTicketSyncHarness(backend: Backend): Promise<TicketSyncHarness> {
  const db = await openTestDatabase(backend);
  await db.prisma.account.create({ data: { id: SYNC_ACCOUNT, zendeskSubdomain: 'demo' } });

  const zendeskSandbox = createZendeskSandbox({ searchLagMs: 0 });
  const demo = seedDemo(zendeskSandbox);
  const zendeskServer = await zendeskSandbox.listen(0);
  const connectorUserId = demo.agentIds[0]!;
  const token = zendeskSandbox.issueToken('demo', connectorUserId, ['read', 'write'], 172_800);
  const zendesk = new ZendeskClient({
    baseUrl: `${zendeskServer.url}/_z/demo`,
    tokenProvider: {
      getAccessToken: async () => token,
      refreshAfterUnauthorized: async () => token,
    },
    // a failed ticket update fails at once: the tests drive retries themselves
    retry: false,
  });

  const incidentSandbox = createIncidentSandbox({ webhookDelayMs: 5, webhookRetryDelaysMs: [] });
  const incidentServer = await incidentSandbox.listen(0);
  const incidentClient = (clientId?: string): IncidentClient =>
    createIncidentClient({
      baseURL: incidentServer.url,
      apiKey: DEMO_KEY,
      ...(clientId ? { clientId } : {}),
      retry: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 5 },
    });
  const parent = incidentClient();

  const settings: AccountSettings = {
    forwardInternalNotes: false,
    solveOnTakedownSuccess: false,
    openTicketsForDetectedIncidents: true,
    newTicketGroupId: null,
  };
  const ctx: AccountContext = {
    accountId: SYNC_ACCOUNT,
    subdomain: 'demo',
    zendesk,
    incidents: (clientId) => (clientId ? incidentClient(clientId) : parent),
    fields: {
      threat: demo.threatFieldId,
      incidentId: demo.incidentFieldId,
      status: demo.statusFieldId,
    },
    settings,
    noteLocale: 'en',
    canReadAudits: true,
  };

  const zControl = `${zendeskServer.url}/_sandbox`;
  const iControl = `${incidentServer.url}/_sandbox`;
  const readTicket = (ticketId: number) =>
    call<{ ticket: SandboxTicket; comments: SandboxComment[] }>(
      `${zControl}/accounts/demo/tickets/${ticketId}`,
      'GET',
    );
  const incidents = async () =>
    (await call<{ incidents: SandboxIncident[] }>(`${iControl}/state`, 'GET')).incidents;

  return {
    db,
    ctx,
    settings,
    demo,
    connectorUserId,
    zendeskUrl: zendeskServer.url,
    incidentUrl: incidentServer.url,
    zendeskSandbox,
    incidentSandbox,
    createTicket: async ({
      threat,
      body = 'Please look at this threat.',
      requesterId = demo.endUserId,
      tags = ['incident_submit'],
      attachments,
    }) => {
      const created = await call<{ ticket: { id: number } }>(
        `${zControl}/accounts/demo/tickets`,
        'POST',
        {
          requester_id: requesterId,
          subject: 'Suspicious thing',
          body,
          tags,
          custom_fields: threat === undefined ? [] : [{ id: demo.threatFieldId, value: threat }],
          ...(attachments ? { attachments: attachments.map(toSandboxFile) } : {}),
        },
      );
      return created.ticket.id;
    },
    addComment: async (ticketId, input) => {
      const created = await call<{ comment: { id: number } }>(
        `${zControl}/accounts/demo/tickets/${ticketId}/comments`,
        'POST',
        {
          author_id: input.authorId,
          body: input.body,
          public: input.public,
          ...(input.attachments ? { attachments: input.attachments.map(toSandboxFile) } : {}),
        },
      );
      return created.comment.id;
    },
    addTags: async (ticketId, tags) => {
      await zendesk.tickets.update(ticketId, { additional_tags: tags });
    },
    readTicket,
    notesContaining: async (ticketId, text) =>
      (await readTicket(ticketId)).comments.filter((c) => !c.public && c.body.includes(text)),
    incidents,
    incidentsWithSubject: async (subject) =>
      (await incidents()).filter((i) => i.subject.toLowerCase() === subject.toLowerCase()),
    zendeskFault: async (fault) => {
      await call(`${zControl}/faults`, 'POST', fault);
    },
    incidentFault: async (fault) => {
      await call(`${iControl}/faults`, 'POST', fault);
    },
    clearFaults: async () => {
      await call(`${zControl}/faults`, 'DELETE');
      await call(`${iControl}/faults`, 'DELETE');
    },
    job: (body) => ({ accountId: SYNC_ACCOUNT, receivedAt: new Date().toISOString(), body }),
    close: async () => {
      await zendeskServer.close();
      await incidentSandbox.close();
      await db.dispose();
    },
  };
}
