import { accountBaseUrl } from '../workspace-deps';

/** Where the sandbox is reachable; set when it starts listening unless a public URL was configured. */
export class SandboxUrls {
  constructor(public origin: string) {}

  account(subdomain: string): string {
    return accountBaseUrl(this.origin, subdomain);
  }

  api(subdomain: string, path: string): string {
    return `${this.account(subdomain)}/api/v2/${path}`;
  }

  /** Zendesk's `{{ticket.url}}` has no scheme; ours is the sandbox's own agent page. */
  agentTicket(subdomain: string, ticketId: number): string {
    return `${this.origin}/agent/tickets/${ticketId}?subdomain=${encodeURIComponent(subdomain)}`;
  }
}
