import { encodePath } from '../core/encode-path';
import type { HttpTransport } from '../core/http-transport';
import type { ZendeskRequestOptions } from '../core/options';
import { type CursorPage, cursorList, type PagePromise } from '../core/pagination';
import { EditableRecords } from '../core/write-record';
import {
  type TTrigger,
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

const TRIGGERS = {
  key: 'trigger',
  answer: ZTriggerResponse,
  what: 'trigger',
  collection: '/api/v2/triggers',
  suffix: '.json',
  createInput: ZTriggerCreateInput,
  updateInput: ZTriggerUpdateInput,
} as const;

/** Triggers: `create` is POST /api/v2/triggers.json, `update` PUT /api/v2/triggers/{id}.json. */
export class Triggers extends EditableRecords<typeof TRIGGERS> {
  constructor(transport: HttpTransport) {
    super(transport, TRIGGERS);
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

  /** DELETE /api/v2/triggers/{id}.json (204). */
  async delete(triggerId: number, options?: ZendeskRequestOptions): Promise<void> {
    await this.transport.empty({
      method: 'DELETE',
      path: encodePath`/api/v2/triggers/${triggerId}.json`,
      options,
    });
  }
}
