// The incident sandbox as the tests see it: its control API plays the analyst, its state is the
// service's truth the sidebar's actions must change.
import { requestJson } from './http';
import { stackUrls } from './stack-config';

export interface TSandboxIncident {
  id: string;
  ref: string;
  status: string;
  subject: string;
  requestedAction?: string;
  history: {
    timestamp: string;
    message: string;
    author?: { type?: string; name?: string; email?: string };
  }[];
}

const control = `${stackUrls.incident}/_sandbox`;

export function getIncident(id: string): Promise<TSandboxIncident> {
  return requestJson<TSandboxIncident>('GET', `${control}/incidents/${encodeURIComponent(id)}`);
}

/** Moves the incident as an analyst would (the sandbox's transition graph, no force). */
export function advanceIncident(id: string, status: string, message?: string): Promise<unknown> {
  return requestJson('POST', `${control}/incidents/${encodeURIComponent(id)}/advance`, {
    status,
    ...(message === undefined ? {} : { message }),
  });
}

/** An incident created directly in the service (as its analysts or another channel would). */
export function seedIncident(input: {
  incidentType: string;
  subject: string;
  status?: string;
}): Promise<TSandboxIncident> {
  return requestJson<TSandboxIncident>('POST', `${control}/incidents`, {
    clientId: 'cl_demo_parent',
    ...input,
  });
}

/** A fault the service's API shows on matching requests (`times` of them, or until cleared). */
export function injectFault(fault: Record<string, unknown>): Promise<{ id: string; hits: number }> {
  return requestJson('POST', `${control}/faults`, fault);
}

export async function clearFault(id: string): Promise<void> {
  await requestJson('DELETE', `${control}/faults/${encodeURIComponent(id)}`);
}
