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
}

async function json<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

export function sandboxTicket(stack: ChaosStack, subdomain: string, id: number | bigint) {
  return json<SandboxTicket>(`${stack.zendeskUrl}/_sandbox/accounts/${subdomain}/tickets/${id}`);
}

export function seedIncident(stack: ChaosStack, input: Record<string, unknown>) {
  return json<{ id: string; ref: string; subject?: string }>(
    `${stack.incidentUrl}/_sandbox/incidents`,
    {
      method: 'POST',
      body: JSON.stringify(input),
    },
  );
}

export function advanceIncident(stack: ChaosStack, id: string, input: Record<string, unknown>) {
  return json<unknown>(
    `${stack.incidentUrl}/_sandbox/incidents/${encodeURIComponent(id)}/advance`,
    {
      method: 'POST',
      body: JSON.stringify(input),
    },
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
