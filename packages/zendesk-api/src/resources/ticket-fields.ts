import type { HttpTransport } from '../core/http-transport';
import type { ZendeskRequestOptions } from '../core/options';
import { CursorPage, PagePromise } from '../core/pagination';
import { parseRequest } from '../core/parse-request';
import {
  type TTicketField,
  type TTicketFieldCreateInput,
  type TTicketFieldUpdateInput,
  ZTicketFieldCreateInput,
  ZTicketFieldUpdateInput,
  ZTicketFieldResponse,
  ZTicketFieldsResponse,
} from '../schemas/ticket-field';

export interface TicketFieldsListParams {
  /** Cursor page size, 1-100. Default: 100. */
  pageSize?: number | undefined;
}

export class TicketFields {
  constructor(private readonly transport: HttpTransport) {}

  /** GET /api/v2/ticket_fields.json, cursor-paginated. */
  list(
    params: TicketFieldsListParams = {},
    options?: ZendeskRequestOptions,
  ): PagePromise<CursorPage<TTicketField>, TTicketField> {
    return new PagePromise(() => this.loadPage(params, undefined, options));
  }

  /** POST /api/v2/ticket_fields.json (needs `write` or an admin; see README). */
  async create(
    input: TTicketFieldCreateInput,
    options?: ZendeskRequestOptions,
  ): Promise<TTicketField> {
    const ticketField = parseRequest(ZTicketFieldCreateInput, input, 'ticket field');
    const response = await this.transport.json(
      {
        method: 'POST',
        path: '/api/v2/ticket_fields.json',
        json: { ticket_field: ticketField },
        options,
      },
      ZTicketFieldResponse,
    );
    return response.ticket_field;
  }

  /**
   * PUT /api/v2/ticket_fields/{id}.json: title, activity, options (the options given replace the
   * field's options). The type of a field cannot change.
   */
  async update(
    fieldId: number,
    input: TTicketFieldUpdateInput,
    options?: ZendeskRequestOptions,
  ): Promise<TTicketField> {
    const ticketField = parseRequest(ZTicketFieldUpdateInput, input, 'ticket field');
    const response = await this.transport.json(
      {
        method: 'PUT',
        path: `/api/v2/ticket_fields/${fieldId}.json`,
        json: { ticket_field: ticketField },
        options,
      },
      ZTicketFieldResponse,
    );
    return response.ticket_field;
  }

  private async loadPage(
    params: TicketFieldsListParams,
    afterCursor: string | undefined,
    options: ZendeskRequestOptions | undefined,
  ): Promise<CursorPage<TTicketField>> {
    const response = await this.transport.json(
      {
        method: 'GET',
        path: '/api/v2/ticket_fields.json',
        query: { 'page[size]': params.pageSize ?? 100, 'page[after]': afterCursor },
        options,
      },
      ZTicketFieldsResponse,
    );
    return new CursorPage(
      response.ticket_fields,
      { hasMore: response.meta?.has_more ?? false, afterCursor: response.meta?.after_cursor },
      (after) => this.loadPage(params, after, options),
    );
  }
}
