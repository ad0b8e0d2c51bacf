import type { KeyObject } from 'node:crypto';

// The seam between the sandbox core and the agent-workspace host page (src/workspace/).
// Keep this interface stable: the workspace router is written against it.
// The sandbox mounts `createWorkspaceRouter({...options, ...deps})` at `/agent`. A request to
// `/_z/<sub>/agent/...` reaches that router with the `/_z/<sub>` prefix stripped and
// `res.locals.subdomain === '<sub>'`; `<sub>.localhost` hosts set `res.locals.subdomain` too.

export interface WorkspaceUser {
  id: number;
  name: string;
  email: string;
  role: 'admin' | 'agent' | 'end-user';
  locale: string;
  time_zone: string;
  /** The groups the user belongs to (group memberships); none when not given. */
  groups?: Array<{ id: number; name: string }>;
}

export interface WorkspaceDeps {
  /**
   * The sandbox's origin as clients reach it, e.g. `http://127.0.0.1:8789` (no trailing slash).
   * An account's API lives under `${apiBaseUrl()}/_z/<subdomain>/api/v2/...`; see `accountBaseUrl`.
   */
  apiBaseUrl(): string;
  /** An OAuth access token acting as that agent, scopes `read write`, issued to the sandbox's own client. */
  issueAgentToken(subdomain: string, userId: number): Promise<string>;
  findUser(subdomain: string, userId: number): Promise<WorkspaceUser | null>;
  /** The first agent (or admin) of the account; rejects when the account does not exist. */
  defaultAgent(subdomain: string): Promise<WorkspaceUser>;
  /** Called after every committed ticket change (API, control API, triggers). Returns an unsubscribe function. */
  onTicketChanged(listener: (subdomain: string, ticketId: number) => void): () => void;
  /** Installs the app in the account (once) and returns the installation id, unique per account and app. */
  installApp(subdomain: string, appId: number): number;
  /** The key Zendesk signs the app's ZAF JWTs with (its public half is at /api/v2/apps/{id}/public_key.pem). */
  appSigningKey(appId: number): KeyObject;
}

/** The base URL of one account, e.g. `http://127.0.0.1:8789/_z/demo`; append `/api/v2/...` or `/oauth/...`. */
export function accountBaseUrl(origin: string, subdomain: string): string {
  return `${origin.replace(/\/$/, '')}/_z/${encodeURIComponent(subdomain)}`;
}
