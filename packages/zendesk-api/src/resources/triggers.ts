import { encodePath } from '../core/encode-path';
import type { HttpTransport } from '../core/http-transport';
import type { ZendeskRequestOptions } from '../core/options';
import { type CursorPage, cursorList, type PagePromise } from '../core/pagination';
import { RecordWrites } from '../core/write-record';
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
  private readonly writes: RecordWrites<'trigger', typeof ZTriggerResponse>;

  constructor(private readonly transport: HttpTransport) {
    this.writes = new RecordWrites(transport, {
      key: 'trigger',
      answer: ZTriggerResponse,
      what: 'trigger',
      collection: '/api/v2/triggers',
      suffix: '.json',
    });
  }

  /** GET /api/v2/triggers.json, cursor-paginated. */
  list(
    params: TriggersListParams = {},
    options?: ZendeskRequestOptions,
  ): PagePromise<CursorPage<TTrigger>, TTrigger> {
    return cursorList(
      (afterCursor) =>
        this.transport.json(
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
        ),
      (answer) => answer.triggers,
    );
  }

  /** POST /api/v2/triggers.json */
  create(input: TTriggerCreateInput, options?: ZendeskRequestOptions): Promise<TTrigger> {
    return this.writes.create(ZTriggerCreateInput, input, options);
  }

  /** PUT /api/v2/triggers/{id}.json */
  update(
    triggerId: number,
    input: TTriggerUpdateInput,
    options?: ZendeskRequestOptions,
  ): Promise<TTrigger> {
    return this.writes.update(triggerId, ZTriggerUpdateInput, input, options);
  }

  /** DELETE /api/v2/triggers/{id}.json (204). */
  async delete(triggerId: number, options?: ZendeskRequestOptions): Promise<void> {
    await this.transport.empty({
      method: 'DELETE',
      path: encodePath`/api/v2/triggers/${triggerId}.json`,
      options,
    });
  }
}
