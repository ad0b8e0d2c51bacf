import type { HttpTransport } from '../core/http-transport';
import type { ZendeskRequestOptions } from '../core/options';
import { type CursorPage, cursorList, type PagePromise } from '../core/pagination';
import { RecordWrites } from '../core/write-record';
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
  private readonly writes: RecordWrites<'ticket_field', typeof ZTicketFieldResponse>;

  constructor(private readonly transport: HttpTransport) {
    this.writes = new RecordWrites(transport, {
      key: 'ticket_field',
      answer: ZTicketFieldResponse,
      what: 'ticket field',
      collection: '/api/v2/ticket_fields',
      suffix: '.json',
    });
  }

  /** GET /api/v2/ticket_fields.json, cursor-paginated. */
  list(
    params: TicketFieldsListParams = {},
    options?: ZendeskRequestOptions,
  ): PagePromise<CursorPage<TTicketField>, TTicketField> {
    return cursorList(
      (afterCursor) =>
        this.transport.json(
          {
            method: 'GET',
            path: '/api/v2/ticket_fields.json',
            query: { 'page[size]': params.pageSize ?? 100, 'page[after]': afterCursor },
            options,
          },
          ZTicketFieldsResponse,
        ),
      (answer) => answer.ticket_fields,
    );
  }

  /** POST /api/v2/ticket_fields.json (needs `write` or an admin; see README). */
  create(input: TTicketFieldCreateInput, options?: ZendeskRequestOptions): Promise<TTicketField> {
    return this.writes.create(ZTicketFieldCreateInput, input, options);
  }

  /**
   * PUT /api/v2/ticket_fields/{id}.json: title, activity, options (the options given replace the
   * field's options). The type of a field cannot change.
   */
  update(
    fieldId: number,
    input: TTicketFieldUpdateInput,
    options?: ZendeskRequestOptions,
  ): Promise<TTicketField> {
    return this.writes.update(fieldId, ZTicketFieldUpdateInput, input, options);
  }
}
