// Small readers and writers of the sandboxes' control APIs used by the security runs.
import type { ChaosStack } from './stack';

export interface SandboxTicket {
  ticket: {
    id: number;
    subject: string;
    tags: string[];
    custom_fields: { id: number; value: unknown }[];
  };
  comments: { public: boolean; body: string; html_body?: string }[];
  /** Every update of the ticket, oldest first: the connector's name the events they applied. */
  audits: { id: number; metadata: { custom?: unknown } }[];
}

/** A control-API request with a JSON body: an answer other than 2xx throws, naming its status. */
export async function controlCall<T = unknown>(
  url: string,
  method = 'GET',
  body?: unknown,
): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 200)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export function sandboxTicket(stack: ChaosStack, subdomain: string, id: number | bigint) {
  return controlCall<SandboxTicket>(
    `${stack.zendeskUrl}/_sandbox/accounts/${subdomain}/tickets/${id}`,
  );
}

export function seedIncident(stack: ChaosStack, input: Record<string, unknown>) {
  return controlCall<{ id: string; ref: string; subject?: string }>(
    `${stack.incidentUrl}/_sandbox/incidents`,
    'POST',
    input,
  );
}

export function advanceIncident(stack: ChaosStack, id: string, input: Record<string, unknown>) {
  return controlCall(
    `${stack.incidentUrl}/_sandbox/incidents/${encodeURIComponent(id)}/advance`,
    'POST',
    input,
  );
}

export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}
