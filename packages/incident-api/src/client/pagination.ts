import { IncidentApiError } from '../errors';
import type { TCursorPaging, TOffsetPaging } from '../schemas/paging';

export interface CursorPage<T> {
  data: T[];
  paging: TCursorPaging;
}

export interface OffsetPage<T> {
  data: T[];
  paging: TOffsetPaging;
}

/** What both kinds of list share: items page by page, or all of them for small lists. */
abstract class Paginator<T, P extends { data: T[] }> implements AsyncIterable<T> {
  abstract pages(): AsyncGenerator<P, void, undefined>;

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** Every item, for small lists. */
  async toArray(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}

/**
 * Items of a cursor-paginated list, fetched page by page as they are consumed:
 * `for await (const incident of client.incidents.list({ status: 'closed' }))`.
 * The fetcher repeats every filter; the walk stops when `paging.next` is null or absent.
 */
export class CursorPaginator<T> extends Paginator<T, CursorPage<T>> {
  constructor(
    private readonly fetchPage: (cursor: string | undefined) => Promise<CursorPage<T>>,
    private readonly startCursor?: string,
  ) {
    super();
  }

  async *pages(): AsyncGenerator<CursorPage<T>, void, undefined> {
    let cursor = this.startCursor;
    const seen = new Set<string>(cursor === undefined ? [] : [cursor]);
    for (;;) {
      const page = await this.fetchPage(cursor);
      yield page;
      const next = page.paging.next;
      if (next === null || next === undefined || next === '') return;
      // a cursor that comes back would loop forever
      if (seen.has(next)) throw new IncidentApiError(`pagination cursor repeated: ${next}`);
      seen.add(next);
      cursor = next;
    }
  }
}

/** Items of the users' offset-paginated list: iterates until offset + count reaches total. */
export class OffsetPaginator<T> extends Paginator<T, OffsetPage<T>> {
  constructor(
    private readonly fetchPage: (offset: number) => Promise<OffsetPage<T>>,
    private readonly startOffset = 0,
  ) {
    super();
  }

  async *pages(): AsyncGenerator<OffsetPage<T>, void, undefined> {
    let offset = this.startOffset;
    for (;;) {
      const page = await this.fetchPage(offset);
      yield page;
      const { count, total } = page.paging;
      // counted from the offset we asked for, so a service echoing a wrong offset cannot loop us;
      // an empty page before total would otherwise repeat the same request forever
      const reached = offset + count;
      if (reached >= total || count <= 0) return;
      offset = reached;
    }
  }
}
