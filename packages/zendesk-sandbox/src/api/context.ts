import type { RateLimits } from '../control/rate-limiter';
import type { JobRunner } from '../jobs/job-runner';
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

export * from './request-locals';
