import { ZUsageResponse } from '../../schemas/envelopes';
import { ZUsageQuery, type TUsageQuery } from '../../schemas/requests/usage-query';
import type { TUsage } from '../../schemas/usage';
import type { RequestOptions } from '../options';
import type { Transport } from '../transport';
import { validateRequest } from '../validate';
import { withClientId } from './with-client-id';

export class UsageResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/usage. remainingCredits: number, 'unlimited', or null = the client does not use credits. */
  async retrieve(query: TUsageQuery = {}, options?: RequestOptions): Promise<TUsage> {
    const validated = validateRequest(
      ZUsageQuery,
      withClientId(this.transport, query),
      'usage query',
    );
    const result = await this.transport.request({
      operation: 'usage.retrieve',
      method: 'GET',
      path: '/v1/usage',
      query: validated,
      schema: ZUsageResponse,
      options,
    });
    return result.data.data;
  }
}
