import { ZClient, type TClient } from '../../schemas/client-account';
import { looseList } from '../loose';
import type { RequestOptions } from '../options';
import type { QueryValue, Transport } from '../transport';

export class ClientsResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/clients: ClientStructure items; parameters and envelope assumed (assumptions.ts). */
  async list(query: Record<string, QueryValue> = {}, options?: RequestOptions): Promise<TClient[]> {
    const result = await this.transport.request({
      operation: 'clients.list',
      method: 'GET',
      path: '/v1/clients',
      query,
      schema: looseList(ZClient),
      options,
    });
    return result.data;
  }
}
