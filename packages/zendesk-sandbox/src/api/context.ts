import type { Response } from 'express';
import type { RateLimits } from '../control/rate-limiter';
import type { JobRunner } from '../jobs/job-runner';
import type { AccountRecord, TokenRecord, UserRecord } from '../state/model';
import type { SandboxState } from '../state/sandbox-state';
import type { TicketService } from '../state/ticket-service';
import type { SandboxUrls } from '../state/urls';
import type { WebhookDispatcher } from '../triggers/webhook-dispatcher';

/** Everything the HTTP layer needs from the sandbox core. */
export interface SandboxContext {
  state: SandboxState;
  urls: SandboxUrls;
  tickets: TicketService;
  dispatcher: WebhookDispatcher;
  jobs: JobRunner;
  limits: RateLimits;
}

export interface AuthLocals {
  subdomain?: string;
  account?: AccountRecord;
  user?: UserRecord;
  token?: TokenRecord;
}

function locals(res: Response): AuthLocals {
  return res.locals as AuthLocals;
}

export function setLocals(res: Response, values: AuthLocals): void {
  Object.assign(res.locals, values);
}

export function subdomainOf(res: Response): string | undefined {
  return locals(res).subdomain;
}

/** The authenticated caller; only valid behind `authenticate`. */
export function caller(res: Response): {
  account: AccountRecord;
  user: UserRecord;
  token: TokenRecord;
} {
  const { account, user, token } = locals(res);
  if (!account || !user || !token) throw new Error('caller() used on a route without authenticate');
  return { account, user, token };
}
