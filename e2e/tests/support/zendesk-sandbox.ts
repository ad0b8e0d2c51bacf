// The Zendesk sandbox as the tests see it: tickets opened by the demo end user, changes made by an
// agent through the Support API, and the ticket's comments read back through the control API.
import { requestJson } from './http';
import { stackUrls, SUBDOMAIN } from './stack-config';

interface TUser {
  id: number;
  email: string;
  role: string;
}
interface TTicket {
  id: number;
  tags: string[];
  custom_fields: { id: number; value: string | null }[];
}
export interface TTicketState {
  ticket: TTicket;
  comments: { id: number; body: string; public: boolean }[];
}

const control = `${stackUrls.zendesk}/_sandbox/accounts/${SUBDOMAIN}`;
const api = `${stackUrls.zendesk}/_z/${SUBDOMAIN}/api/v2`;

interface TDemo {
  agent: TUser;
  endUser: TUser;
  token: string;
  fields: { threat: number; incidentId: number };
}
let demo: Promise<TDemo> | undefined;

async function loadDemo(): Promise<TDemo> {
  const { users } = await requestJson<{ users: TUser[] }>('GET', `${control}/users`);
  const admin = users.find((u) => u.role === 'admin');
  const agent = users.find((u) => u.role === 'agent');
  const endUser = users.find((u) => u.role === 'end-user');
  if (!admin || !agent || !endUser)
    throw new Error('the demo account lacks an admin, an agent or an end user');
  const { access_token: token } = await requestJson<{ access_token: string }>(
    'POST',
    `${control}/tokens`,
    {
      user_id: admin.id,
      scopes: 'read write',
    },
  );
  const { ticket_fields } = await requestJson<{ ticket_fields: { id: number; title: string }[] }>(
    'GET',
    `${api}/ticket_fields.json`,
    undefined,
    { authorization: `Bearer ${token}` },
  );
  const fieldId = (title: string) => {
    const field = ticket_fields.find((f) => f.title === title);
    if (!field) throw new Error(`no ticket field "${title}"`);
    return field.id;
  };
  return {
    agent,
    endUser,
    token,
    fields: { threat: fieldId('Threat URL'), incidentId: fieldId('Incident ID') },
  };
}

export function demoAccount(): Promise<TDemo> {
  demo ??= loadDemo();
  return demo;
}

/** A new ticket from the demo end user, optionally with a Threat URL. */
export async function createTicket(
  subject: string,
  threat?: string,
  body = 'Please look at this.',
): Promise<number> {
  const { endUser, fields } = await demoAccount();
  const { ticket } = await requestJson<{ ticket: TTicket }>('POST', `${control}/tickets`, {
    requester_id: endUser.id,
    subject,
    body,
    ...(threat === undefined ? {} : { custom_fields: [{ id: fields.threat, value: threat }] }),
  });
  return ticket.id;
}

/** An agent's change through the Support API (triggers run, as for any update). */
export async function updateTicket(
  ticketId: number,
  ticket: Record<string, unknown>,
): Promise<void> {
  const { token } = await demoAccount();
  await requestJson(
    'PUT',
    `${api}/tickets/${ticketId}.json`,
    { ticket },
    { authorization: `Bearer ${token}` },
  );
}

export function ticketState(ticketId: number): Promise<TTicketState> {
  return requestJson<TTicketState>('GET', `${control}/tickets/${ticketId}`);
}

export async function incidentIdOf(ticketId: number): Promise<string | null> {
  const { fields } = await demoAccount();
  const { ticket } = await ticketState(ticketId);
  return ticket.custom_fields.find((f) => f.id === fields.incidentId)?.value ?? null;
}

export async function setIncidentId(ticketId: number, incidentId: string): Promise<void> {
  const { fields } = await demoAccount();
  await updateTicket(ticketId, { custom_fields: [{ id: fields.incidentId, value: incidentId }] });
}

/** A fault the Zendesk sandbox plays on matching requests until it is cleared (its control API). */
export async function injectZendeskFault(fault: {
  path: string;
  kind: 'latency' | 'error' | 'unauthorized' | 'drop';
  method?: string;
  status?: number;
  latency_ms?: number;
}): Promise<{ id: number }> {
  const { fault: injected } = await requestJson<{ fault: { id: number } }>(
    'POST',
    `${stackUrls.zendesk}/_sandbox/faults`,
    { subdomain: SUBDOMAIN, ...fault },
  );
  return injected;
}

export async function clearZendeskFault(id: number): Promise<void> {
  await requestJson('DELETE', `${stackUrls.zendesk}/_sandbox/faults/${id}`);
}
