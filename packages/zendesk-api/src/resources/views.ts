import { encodePath } from '../core/encode-path';
import type { HttpTransport } from '../core/http-transport';
import type { ZendeskRequestOptions } from '../core/options';
import { type CursorPage, cursorList, type PagePromise } from '../core/pagination';
import { EditableRecords } from '../core/write-record';
import type { TTicket } from '../schemas/ticket';
import {
  type TView,
  ZViewCreateInput,
  ZViewResponse,
  ZViewsResponse,
  ZViewTicketsResponse,
  ZViewUpdateInput,
} from '../schemas/view';

export interface ViewsListParams {
  /** Only active (true) or inactive (false) views. Default: all. */
  active?: boolean | undefined;
  /** `personal`, `shared` or `account`. Default: every view the caller sees. */
  access?: 'personal' | 'shared' | 'account' | undefined;
  /** Cursor page size, 1-100. Default: 100. */
  pageSize?: number | undefined;
}

const VIEWS = {
  key: 'view',
  answer: ZViewResponse,
  what: 'view',
  collection: '/api/v2/views',
  suffix: '.json',
  createInput: ZViewCreateInput,
  updateInput: ZViewUpdateInput,
} as const;

/**
 * Ticket views: `create` is POST /api/v2/views.json, `update` PUT /api/v2/views/{id}.json. Views
 * have no resource scope: reading needs `read`, changing shared views `write` and an admin.
 */
export class Views extends EditableRecords<typeof VIEWS> {
  constructor(transport: HttpTransport) {
    super(transport, VIEWS);
  }

  /** GET /api/v2/views.json, cursor-paginated: the views the caller sees. */
  list(
    params: ViewsListParams = {},
    options?: ZendeskRequestOptions,
  ): PagePromise<CursorPage<TView>, TView> {
    return cursorList(
      (afterCursor) =>
        this.transport.json(
          {
            method: 'GET',
            path: '/api/v2/views.json',
            query: {
              active: params.active,
              access: params.access,
              'page[size]': params.pageSize ?? 100,
              'page[after]': afterCursor,
            },
            requiredScope: 'read',
            options,
          },
          ZViewsResponse,
        ),
      (answer) => answer.views,
    );
  }

  /** GET /api/v2/views/{id}/tickets.json, cursor-paginated: the tickets the view holds now. */
  tickets(
    viewId: number,
    params: { pageSize?: number | undefined } = {},
    options?: ZendeskRequestOptions,
  ): PagePromise<CursorPage<TTicket>, TTicket> {
    return cursorList(
      (afterCursor) =>
        this.transport.json(
          {
            method: 'GET',
            path: encodePath`/api/v2/views/${viewId}/tickets.json`,
            query: { 'page[size]': params.pageSize ?? 100, 'page[after]': afterCursor },
            requiredScope: 'read',
            options,
          },
          ZViewTicketsResponse,
        ),
      (answer) => answer.tickets,
    );
  }

  /** DELETE /api/v2/views/{id}.json (204). */
  async delete(viewId: number, options?: ZendeskRequestOptions): Promise<void> {
    await this.transport.empty({
      method: 'DELETE',
      path: encodePath`/api/v2/views/${viewId}.json`,
      requiredScope: 'write',
      options,
    });
  }
}
