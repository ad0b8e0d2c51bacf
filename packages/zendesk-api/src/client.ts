import { AttachmentSources } from './core/attachment-sources';
import { HttpTransport } from './core/http-transport';
import { resolveClientOptions, type ZendeskClientOptions } from './core/options';
import { Apps } from './resources/apps';
import { Attachments } from './resources/attachments';
import { Groups } from './resources/groups';
import { JobStatuses } from './resources/job-statuses';
import { OAuthTokens } from './resources/oauth-tokens';
import { Locales } from './resources/locales';
import { Search } from './resources/search';
import { TicketFields } from './resources/ticket-fields';
import { Tickets } from './resources/tickets';
import { Triggers } from './resources/triggers';
import { Uploads } from './resources/uploads';
import { Users } from './resources/users';
import { Views } from './resources/views';
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
  readonly groups: Groups;
  readonly search: Search;
  readonly webhooks: Webhooks;
  readonly triggers: Triggers;
  readonly jobStatuses: JobStatuses;
  readonly apps: Apps;
  readonly views: Views;
  readonly oauthTokens: OAuthTokens;
  readonly locales: Locales;

  constructor(options: ZendeskClientOptions) {
    const resolved = resolveClientOptions(options);
    const transport = new HttpTransport(resolved);
    this.tickets = new Tickets(transport);
    this.attachments = new Attachments(
      transport,
      new AttachmentSources(new URL(resolved.baseUrl).origin, options.attachmentSources),
    );
    this.uploads = new Uploads(transport);
    this.ticketFields = new TicketFields(transport);
    this.users = new Users(transport);
    this.groups = new Groups(transport);
    this.search = new Search(transport);
    this.webhooks = new Webhooks(transport);
    this.triggers = new Triggers(transport);
    this.jobStatuses = new JobStatuses(transport);
    this.apps = new Apps(transport);
    this.views = new Views(transport);
    this.oauthTokens = new OAuthTokens(transport);
    this.locales = new Locales(transport);
  }
}
