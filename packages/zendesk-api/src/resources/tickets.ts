import { encodePath } from '../core/encode-path';
import type { HttpTransport } from '../core/http-transport';
import type { ZendeskRequestOptions } from '../core/options';
import { parseRequest } from '../core/parse-request';
import { ZendeskError } from '../core/errors';
import {
  type TJobStatus,
  type TTicketBulkUpdateItem,
  ZJobStatusResponse,
  ZTicketBulkUpdateItem,
} from '../schemas/job-status';
import {
  type TTicket,
  type TTicketCreateInput,
  type TTicketUpdateInput,
  type TTicketWriteResponse,
  ZTicketCreateInput,
  ZTicketResponse,
  ZTicketUpdateInput,
  ZTicketWriteResponse,
} from '../schemas/ticket';
import { TicketAudits } from './ticket-audits';
import { TicketComments } from './ticket-comments';

export interface TicketCreateOptions extends ZendeskRequestOptions {
  /**
   * Sent as `Idempotency-Key`: Zendesk returns the first result for a repeated key, so the
   * create becomes safe to retry on 5xx and connection errors.
   */
  idempotencyKey?: string | undefined;
}

export class Tickets {
  readonly comments: TicketComments;
  readonly audits: TicketAudits;

  constructor(private readonly transport: HttpTransport) {
    this.comments = new TicketComments(transport);
    this.audits = new TicketAudits(transport);
  }

  /** GET /api/v2/tickets/{id}.json */
  async show(ticketId: number, options?: ZendeskRequestOptions): Promise<TTicket> {
    const response = await this.transport.json(
      { method: 'GET', path: encodePath`/api/v2/tickets/${ticketId}.json`, options },
      ZTicketResponse,
    );
    return response.ticket;
  }

  /** PUT /api/v2/tickets/{id}.json: note, fields, tags, status and assignment in one update. */
  async update(
    ticketId: number,
    input: TTicketUpdateInput,
    options?: ZendeskRequestOptions,
  ): Promise<TTicketWriteResponse> {
    const ticket = parseRequest(ZTicketUpdateInput, input, 'ticket update');
    return this.transport.json(
      {
        method: 'PUT',
        path: encodePath`/api/v2/tickets/${ticketId}.json`,
        json: { ticket },
        options,
      },
      ZTicketWriteResponse,
    );
  }

  /**
   * PUT /api/v2/tickets/update_many.json with a `tickets` array of individual changes (up to 100).
   * Zendesk answers a queued job status; follow it with `jobStatuses.waitFor` for per-ticket results.
   * Not retried on 5xx / connection errors by default: the job may have been queued.
   */
  async updateMany(
    items: TTicketBulkUpdateItem[],
    options?: ZendeskRequestOptions,
  ): Promise<TJobStatus> {
    if (items.length === 0 || items.length > 100) {
      throw new ZendeskError(`update_many takes 1 to 100 tickets, not ${items.length}`);
    }
    const tickets = items.map((item, index) =>
      parseRequest(ZTicketBulkUpdateItem, item, `tickets[${index}]`),
    );
    const response = await this.transport.json(
      {
        method: 'PUT',
        path: '/api/v2/tickets/update_many.json',
        json: { tickets },
        idempotent: false,
        options,
      },
      ZJobStatusResponse,
    );
    return response.job_status;
  }

  /** POST /api/v2/tickets.json. Not retried on 5xx / connection errors unless given an idempotency key. */
  async create(
    input: TTicketCreateInput,
    options?: TicketCreateOptions,
  ): Promise<TTicketWriteResponse> {
    const ticket = parseRequest(ZTicketCreateInput, input, 'ticket');
    const idempotencyKey = options?.idempotencyKey;
    return this.transport.json(
      {
        method: 'POST',
        path: '/api/v2/tickets.json',
        json: { ticket },
        headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : undefined,
        idempotent: idempotencyKey ? true : undefined,
        options,
      },
      ZTicketWriteResponse,
    );
  }
}
