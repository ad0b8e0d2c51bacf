import { encodePath } from '../core/encode-path';
import type { HttpTransport } from '../core/http-transport';
import type { ZendeskRequestOptions } from '../core/options';
import { type CursorPage, cursorList, type PagePromise } from '../core/pagination';
import { EditableRecords } from '../core/write-record';
import {
  type TTicketField,
  ZTicketFieldCreateInput,
  ZTicketFieldUpdateInput,
  ZTicketFieldResponse,
  ZTicketFieldsResponse,
} from '../schemas/ticket-field';

export interface TicketFieldsListParams {
  /** Cursor page size, 1-100. Default: 100. */
  pageSize?: number | undefined;
}

const TICKET_FIELDS = {
  key: 'ticket_field',
  answer: ZTicketFieldResponse,
  what: 'ticket field',
  collection: '/api/v2/ticket_fields',
  suffix: '.json',
  createInput: ZTicketFieldCreateInput,
  updateInput: ZTicketFieldUpdateInput,
} as const;

/**
 * Ticket fields: `create` is POST /api/v2/ticket_fields.json (needs `write` or an admin; see
 * README); `update`, PUT /api/v2/ticket_fields/{id}.json, changes the title, activity and options
 * (the options given replace the field's options). The type of a field cannot change.
 */
export class TicketFields extends EditableRecords<typeof TICKET_FIELDS> {
  constructor(transport: HttpTransport) {
    super(transport, TICKET_FIELDS);
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

  /**
   * DELETE /api/v2/ticket_fields/{id}.json (204): the field and its values on every ticket are
   * gone for good. Needs `write` and an admin, like creation.
   */
  async delete(fieldId: number, options?: ZendeskRequestOptions): Promise<void> {
    await this.transport.empty({
      method: 'DELETE',
      path: encodePath`/api/v2/ticket_fields/${fieldId}.json`,
      requiredScope: 'write',
      options,
    });
  }
}
