import type { WebhookDispatcher } from '../webhooks/dispatcher';
import type { SandboxStore } from '../state/store';

/** What every route needs: the state and where incident events go. */
export interface SandboxContext {
  store: SandboxStore;
  dispatcher: WebhookDispatcher;
  /** The dashboard base of report links: {dashboard_url}/incident/<id>. */
  dashboardUrl: string;
  /** Base URL of this server once listening (used in signed document URLs). */
  baseUrl: () => string;
}
