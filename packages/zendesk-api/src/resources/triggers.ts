import { encodePath } from '../core/encode-path';
import type { HttpTransport } from '../core/http-transport';
import type { ZendeskRequestOptions } from '../core/options';
import { CursorPage, PagePromise } from '../core/pagination';
import { parseRequest } from '../core/parse-request';
import {
  type TTrigger,
  type TTriggerCreateInput,
  type TTriggerUpdateInput,
  ZTriggerCreateInput,
  ZTriggerResponse,
  ZTriggersResponse,
  ZTriggerUpdateInput,
} from '../schemas/trigger';

export interface TriggersListParams {
  /** Only active (true) or inactive (false) triggers. Default: all. */
  active?: boolean | undefined;
  /** Cursor page size, 1-100. Default: 100. */
  pageSize?: number | undefined;
}

export class Triggers {
  constructor(private readonly transport: HttpTransport) {}

  /** GET /api/v2/triggers.json, cursor-paginated. */
  list(
    params: TriggersListParams = {},
    options?: ZendeskRequestOptions,
  ): PagePromise<CursorPage<TTrigger>, TTrigger> {
    return new PagePromise(() => this.loadPage(params, undefined, options));
  }

  /** POST /api/v2/triggers.json */
  async create(input: TTriggerCreateInput, options?: ZendeskRequestOptions): Promise<TTrigger> {
    const trigger = parseRequest(ZTriggerCreateInput, input, 'trigger');
    const response = await this.transport.json(
      { method: 'POST', path: '/api/v2/triggers.json', json: { trigger }, options },
      ZTriggerResponse,
    );
    return response.trigger;
  }

  /** PUT /api/v2/triggers/{id}.json */
  async update(
    triggerId: number,
    input: TTriggerUpdateInput,
    options?: ZendeskRequestOptions,
  ): Promise<TTrigger> {
    const trigger = parseRequest(ZTriggerUpdateInput, input, 'trigger update');
    const response = await this.transport.json(
      {
        method: 'PUT',
        path: encodePath`/api/v2/triggers/${triggerId}.json`,
        json: { trigger },
        options,
      },
      ZTriggerResponse,
    );
    return response.trigger;
  }

  /** DELETE /api/v2/triggers/{id}.json (204). */
  async delete(triggerId: number, options?: ZendeskRequestOptions): Promise<void> {
    await this.transport.empty({
      method: 'DELETE',
      path: encodePath`/api/v2/triggers/${triggerId}.json`,
      options,
    });
  }

  private async loadPage(
    params: TriggersListParams,
    afterCursor: string | undefined,
    options: ZendeskRequestOptions | undefined,
  ): Promise<CursorPage<TTrigger>> {
    const response = await this.transport.json(
      {
        method: 'GET',
        path: '/api/v2/triggers.json',
        query: {
          active: params.active,
          'page[size]': params.pageSize ?? 100,
          'page[after]': afterCursor,
        },
        options,
      },
      ZTriggersResponse,
    );
    return new CursorPage(
      response.triggers,
      { hasMore: response.meta?.has_more ?? false, afterCursor: response.meta?.after_cursor },
      (after) => this.loadPage(params, after, options),
    );
  }
}
