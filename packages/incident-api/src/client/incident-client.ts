import type { IncidentClientOptions } from './options';
import { ClientsResource } from './resources/clients';
import { DocumentsResource } from './resources/documents';
import { IncidentsResource } from './resources/incidents';
import { ResolutionsResource } from './resources/resolutions';
import { UsageResource } from './resources/usage';
import { UsersResource } from './resources/users';
import { WebhooksResource } from './resources/webhooks';
import { Transport } from './transport';

/** Typed client of the incident service; one method per endpoint of the spec. */
export class IncidentClient {
  readonly incidents: IncidentsResource;
  readonly resolutions: ResolutionsResource;
  readonly usage: UsageResource;
  readonly users: UsersResource;
  readonly webhooks: WebhooksResource;
  readonly clients: ClientsResource;
  readonly documents: DocumentsResource;

  constructor(options: IncidentClientOptions) {
    const transport = new Transport(options);
    this.incidents = new IncidentsResource(transport);
    this.resolutions = new ResolutionsResource(transport);
    this.usage = new UsageResource(transport);
    this.users = new UsersResource(transport);
    this.webhooks = new WebhooksResource(transport);
    this.clients = new ClientsResource(transport);
    this.documents = new DocumentsResource(transport);
  }
}

export function createIncidentClient(options: IncidentClientOptions): IncidentClient {
  return new IncidentClient(options);
}
