import { ZResolutionsResponse, type TResolutionsResponse } from '../../schemas/envelopes';
import {
  ZResolutionsQuery,
  type TResolutionsQuery,
} from '../../schemas/requests/resolutions-query';
import type { TTakedownAttempts } from '../../schemas/takedown-attempts';
import type { RequestOptions } from '../options';
import { CursorPaginator } from '../pagination';
import type { Transport } from '../transport';
import { compact, validateRequest } from '../validate';
import { withClientId } from './with-client-id';

export class ResolutionsResource {
  constructor(private readonly transport: Transport) {}

  /**
   * GET /v1/incidents/resolutions, one page. 403 → ResolutionsForbiddenError; 404 (an incident on
   * the page vanished), 502 and 503 are retried per policy.
   */
  async listPage(
    query: TResolutionsQuery = {},
    options?: RequestOptions,
  ): Promise<TResolutionsResponse> {
    const validated = validateRequest(
      ZResolutionsQuery,
      withClientId(this.transport, query),
      'resolutions query',
    );
    const result = await this.transport.request({
      operation: 'resolutions.list',
      method: 'GET',
      path: '/v1/incidents/resolutions',
      query: validated,
      schema: ZResolutionsResponse,
      options,
    });
    return result.data;
  }

  /** Every matching incident with all its attempts; the filters are repeated on every page. */
  list(
    query: TResolutionsQuery = {},
    options?: RequestOptions,
  ): CursorPaginator<TTakedownAttempts> {
    const validated = validateRequest(
      ZResolutionsQuery,
      withClientId(this.transport, query),
      'resolutions query',
    );
    return new CursorPaginator(
      (cursor) => this.listPage(compact({ ...validated, cursor }), options),
      validated.cursor,
    );
  }
}
