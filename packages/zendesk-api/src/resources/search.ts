import type { z } from 'zod';
import type { QueryValue } from '../core/encode-path';
import {
  ZendeskError,
  ZendeskRequestValidationError,
  ZendeskResponseValidationError,
} from '../core/errors';
import type { HttpTransport } from '../core/http-transport';
import type { ZendeskRequestOptions } from '../core/options';
import { Page, PagePromise } from '../core/pagination';
import { type TSearchResult, ZSearchResponse } from '../schemas/search';
import { type TTicket, ZTicket } from '../schemas/ticket';

export interface SearchParams {
  sortBy?: 'updated_at' | 'created_at' | 'priority' | 'status' | 'ticket_type' | undefined;
  sortOrder?: 'asc' | 'desc' | undefined;
}

/** Offset pagination as search uses it: `next_page` is a URL, `count` the total. */
export class SearchPage<Item> extends Page<Item> {
  constructor(
    readonly results: Item[],
    readonly count: number | undefined,
    readonly nextPage: string | null | undefined,
    private readonly loadNext: (nextPage: string) => Promise<SearchPage<Item>>,
  ) {
    super();
  }

  getItems(): Item[] {
    return this.results;
  }

  hasNextPage(): boolean {
    return typeof this.nextPage === 'string' && this.nextPage !== '';
  }

  getNextPage(): Promise<SearchPage<Item>> {
    if (!this.nextPage) return Promise.reject(new ZendeskError('There is no next page'));
    return this.loadNext(this.nextPage);
  }
}

/**
 * `type:ticket custom_field_<id>:<value>`, quoting values with spaces or search syntax.
 * Zendesk search has no escape for a double quote, so such values are refused.
 */
export function buildCustomFieldTicketQuery(fieldId: number, value: string | number): string {
  if (!Number.isInteger(fieldId) || fieldId <= 0) {
    throw new ZendeskRequestValidationError('fieldId must be a positive integer');
  }
  const text = String(value);
  if (text === '' || text.includes('"')) {
    throw new ZendeskRequestValidationError(`Cannot search for the value ${JSON.stringify(text)}`);
  }
  const needsQuotes = /[\s:<>()*-]/.test(text);
  return `type:ticket custom_field_${fieldId}:${needsQuotes ? `"${text}"` : text}`;
}

export class Search {
  constructor(private readonly transport: HttpTransport) {}

  /**
   * GET /api/v2/search.json?query=... with a raw query. Results of any type; walk further pages
   * with `for await`. New tickets can take minutes to be indexed.
   */
  query(
    query: string,
    params: SearchParams = {},
    options?: ZendeskRequestOptions,
  ): PagePromise<SearchPage<TSearchResult>, TSearchResult> {
    return new PagePromise(() =>
      this.loadPage(searchQuery(query, params), (result) => result, options),
    );
  }

  /** Tickets whose custom field holds exactly `value` (the link-table recovery search). */
  ticketsByCustomField(
    fieldId: number,
    value: string | number,
    params: SearchParams = {},
    options?: ZendeskRequestOptions,
  ): PagePromise<SearchPage<TTicket>, TTicket> {
    const query = buildCustomFieldTicketQuery(fieldId, value);
    return new PagePromise(() =>
      this.loadPage(searchQuery(query, params), (result) => toTicket(result), options),
    );
  }

  /** Tickets carrying the tag (`type:ticket tags:<tag>`); tags hold no spaces or quotes. */
  ticketsWithTag(
    tag: string,
    params: SearchParams = {},
    options?: ZendeskRequestOptions,
  ): PagePromise<SearchPage<TTicket>, TTicket> {
    if (!/^[^\s"]+$/.test(tag))
      throw new ZendeskRequestValidationError(`Cannot search for the tag ${JSON.stringify(tag)}`);
    return new PagePromise(() =>
      this.loadPage(
        searchQuery(`type:ticket tags:${tag}`, params),
        (result) => toTicket(result),
        options,
      ),
    );
  }

  private async loadPage<Item>(
    query: Record<string, QueryValue>,
    toItem: (result: TSearchResult) => Item,
    options: ZendeskRequestOptions | undefined,
  ): Promise<SearchPage<Item>> {
    const response = await this.transport.json(
      { method: 'GET', path: '/api/v2/search.json', query, options },
      ZSearchResponse,
    );
    return new SearchPage(
      response.results.map(toItem),
      response.count,
      response.next_page,
      (nextPage) => this.loadPage(queryOfNextPage(nextPage), toItem, options),
    );
  }
}

function searchQuery(query: string, params: SearchParams): Record<string, QueryValue> {
  if (query.trim() === '')
    throw new ZendeskRequestValidationError('A search query must not be empty');
  return { query, sort_by: params.sortBy, sort_order: params.sortOrder };
}

// Only the query of `next_page` is reused, against our own baseUrl: the bearer token never
// follows a host named in a response body.
function queryOfNextPage(nextPage: string): Record<string, QueryValue> {
  let url: URL;
  try {
    url = new URL(nextPage);
  } catch (cause) {
    throw new ZendeskError(`Unusable next_page from search: ${JSON.stringify(nextPage)}`, {
      cause,
    });
  }
  return Object.fromEntries(url.searchParams.entries());
}

function toTicket(result: TSearchResult): TTicket {
  const parsed = ZTicket.safeParse(result);
  if (!parsed.success) throw searchShapeError(result, parsed.error);
  return parsed.data;
}

function searchShapeError(result: unknown, error: z.ZodError): ZendeskResponseValidationError {
  return new ZendeskResponseValidationError({
    status: 200,
    body: result,
    requestId: undefined,
    error,
    method: 'GET',
    path: '/api/v2/search.json',
  });
}
