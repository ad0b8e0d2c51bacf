import { encodePath } from '../core/encode-path';
import type { HttpTransport } from '../core/http-transport';
import type { ZendeskRequestOptions } from '../core/options';
import { type CursorPage, cursorList, type PagePromise } from '../core/pagination';
import { type TTicketAudit, ZTicketAuditsResponse } from '../schemas/ticket';

// Zendesk: "The Ticket Audits endpoints require a global "read" scope ... You can't access the
// endpoints using the "auditlogs:read" or "tickets:read" scopes."
const GLOBAL_READ = 'read';

export interface TicketAuditsListParams {
  /** Cursor page size, 1-100. Default: 100. */
  pageSize?: number | undefined;
}

export class TicketAudits {
  constructor(private readonly transport: HttpTransport) {}

  /** GET /api/v2/tickets/{id}/audits.json, oldest first, cursor-paginated. */
  list(
    ticketId: number,
    params: TicketAuditsListParams = {},
    options?: ZendeskRequestOptions,
  ): PagePromise<CursorPage<TTicketAudit>, TTicketAudit> {
    return cursorList(
      (afterCursor) =>
        this.transport.json(
          {
            method: 'GET',
            path: encodePath`/api/v2/tickets/${ticketId}/audits.json`,
            query: { 'page[size]': params.pageSize ?? 100, 'page[after]': afterCursor },
            requiredScope: GLOBAL_READ,
            options,
          },
          ZTicketAuditsResponse,
        ),
      (answer) => answer.audits,
    );
  }
}
