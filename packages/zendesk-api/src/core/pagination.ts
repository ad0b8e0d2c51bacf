import { ZendeskError } from './errors';

/** One page of a list; iterating it walks this page and every following one. */
export abstract class Page<Item> implements AsyncIterable<Item> {
  abstract getItems(): Item[];
  abstract hasNextPage(): boolean;
  abstract getNextPage(): Promise<Page<Item>>;

  async *pages(): AsyncGenerator<Page<Item>> {
    yield this;
    let current: Page<Item> | undefined = this.hasNextPage() ? await this.getNextPage() : undefined;
    while (current) {
      yield current;
      current = current.hasNextPage() ? await current.getNextPage() : undefined;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
    for await (const page of this.pages()) yield* page.getItems();
  }
}

export interface CursorState {
  hasMore: boolean;
  afterCursor: string | null | undefined;
}

/** Zendesk cursor pagination: `page[size]` in, `meta {has_more, after_cursor}` out. */
export class CursorPage<Item> extends Page<Item> {
  constructor(
    readonly items: Item[],
    readonly cursor: CursorState,
    private readonly loadAfter: (afterCursor: string) => Promise<CursorPage<Item>>,
  ) {
    super();
  }

  getItems(): Item[] {
    return this.items;
  }

  hasNextPage(): boolean {
    return (
      this.cursor.hasMore &&
      typeof this.cursor.afterCursor === 'string' &&
      this.cursor.afterCursor !== ''
    );
  }

  getNextPage(): Promise<CursorPage<Item>> {
    const after = this.cursor.afterCursor;
    if (!this.hasNextPage() || !after)
      return Promise.reject(new ZendeskError('There is no next page'));
    return this.loadAfter(after);
  }
}

/**
 * The result of a list call: `await` it for the first page, or `for await` over it for every
 * item across pages. The request is sent on first use, once.
 */
export class PagePromise<P extends Page<Item>, Item>
  implements PromiseLike<P>, AsyncIterable<Item>
{
  #promise: Promise<P> | undefined;

  constructor(private readonly load: () => Promise<P>) {}

  then<Fulfilled = P, Rejected = never>(
    onFulfilled?: ((page: P) => Fulfilled | PromiseLike<Fulfilled>) | null,
    onRejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): Promise<Fulfilled | Rejected> {
    return this.#first().then(onFulfilled, onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
    yield* await this.#first();
  }

  #first(): Promise<P> {
    this.#promise ??= this.load();
    return this.#promise;
  }
}

/** A cursor-paginated list answer: its items under some key, and Zendesk's cursor `meta`. */
interface CursorAnswer {
  meta?: { has_more: boolean; after_cursor?: string | null | undefined } | undefined;
}

/**
 * A cursor-paginated list: `fetchPage` asks for the page after a cursor (none for the first one)
 * and `toPage` wraps each answer, so every page loads the next one the same way.
 */
export function cursorPages<Answer extends CursorAnswer, Item, P extends CursorPage<Item>>(
  fetchPage: (afterCursor: string | undefined) => Promise<Answer>,
  toPage: (answer: Answer, cursor: CursorState, loadAfter: (after: string) => Promise<P>) => P,
): PagePromise<P, Item> {
  const load = async (afterCursor: string | undefined): Promise<P> => {
    const answer = await fetchPage(afterCursor);
    const cursor = {
      hasMore: answer.meta?.has_more ?? false,
      afterCursor: answer.meta?.after_cursor,
    };
    return toPage(answer, cursor, load);
  };
  return new PagePromise(() => load(undefined));
}

/** A cursor-paginated list of plain pages; `itemsOf` picks the items out of an answer. */
export function cursorList<Answer extends CursorAnswer, Item>(
  fetchPage: (afterCursor: string | undefined) => Promise<Answer>,
  itemsOf: (answer: Answer) => Item[],
): PagePromise<CursorPage<Item>, Item> {
  return cursorPages(
    fetchPage,
    (answer, cursor, loadAfter) => new CursorPage(itemsOf(answer), cursor, loadAfter),
  );
}
