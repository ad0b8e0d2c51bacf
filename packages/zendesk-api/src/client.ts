import { HttpTransport } from './core/http-transport';
import { resolveClientOptions, type ZendeskClientOptions } from './core/options';
import { Attachments } from './resources/attachments';
import { Search } from './resources/search';
import { TicketFields } from './resources/ticket-fields';
import { Tickets } from './resources/tickets';
import { Triggers } from './resources/triggers';
import { Uploads } from './resources/uploads';
import { Users } from './resources/users';
import { Webhooks } from './resources/webhooks';

/**
 * Typed Zendesk Support API client for what the connector calls. One instance per account
 * (its baseUrl and token provider are the account's).
 */
export class ZendeskClient {
  readonly tickets: Tickets;
  readonly attachments: Attachments;
  readonly uploads: Uploads;
  readonly ticketFields: TicketFields;
  readonly users: Users;
  readonly search: Search;
  readonly webhooks: Webhooks;
  readonly triggers: Triggers;

  constructor(options: ZendeskClientOptions) {
    const transport = new HttpTransport(resolveClientOptions(options));
    this.tickets = new Tickets(transport);
    this.attachments = new Attachments(transport);
    this.uploads = new Uploads(transport);
    this.ticketFields = new TicketFields(transport);
    this.users = new Users(transport);
    this.search = new Search(transport);
    this.webhooks = new Webhooks(transport);
    this.triggers = new Triggers(transport);
  }
}
