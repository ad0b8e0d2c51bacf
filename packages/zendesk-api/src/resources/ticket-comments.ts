import { encodePath } from '../core/encode-path';
import type { HttpTransport } from '../core/http-transport';
import type { ZendeskRequestOptions } from '../core/options';
import { CursorPage, cursorPages, type PagePromise } from '../core/pagination';
import { type TComment, ZCommentsResponse } from '../schemas/comment';
import type { TUser } from '../schemas/user';

export interface TicketCommentsListParams {
  /** Default: `desc` (newest first). */
  sortOrder?: 'asc' | 'desc' | undefined;
  /** Sideload the comment authors (`include=users`). Default: true. */
  includeUsers?: boolean | undefined;
  /** Cursor page size, 1-100. Default: 100. */
  pageSize?: number | undefined;
}

/** A page of comments with the users sideloaded for that page. */
export class TicketCommentsPage extends CursorPage<TComment> {
  constructor(
    readonly comments: TComment[],
    readonly users: TUser[],
    cursor: CursorPage<TComment>['cursor'],
    loadAfter: (afterCursor: string) => Promise<TicketCommentsPage>,
  ) {
    super(comments, cursor, loadAfter);
  }

  override getNextPage(): Promise<TicketCommentsPage> {
    return super.getNextPage() as Promise<TicketCommentsPage>;
  }

  /** The sideloaded author of a comment, when present. */
  authorOf(comment: TComment): TUser | undefined {
    return this.users.find((user) => user.id === comment.author_id);
  }
}

export class TicketComments {
  constructor(private readonly transport: HttpTransport) {}

  /** GET /api/v2/tickets/{id}/comments.json?sort_order=desc&include=users, cursor-paginated. */
  list(
    ticketId: number,
    params: TicketCommentsListParams = {},
    options?: ZendeskRequestOptions,
  ): PagePromise<TicketCommentsPage, TComment> {
    return cursorPages(
      (afterCursor) =>
        this.transport.json(
          {
            method: 'GET',
            path: encodePath`/api/v2/tickets/${ticketId}/comments.json`,
            query: {
              sort_order: params.sortOrder ?? 'desc',
              include: params.includeUsers === false ? undefined : 'users',
              'page[size]': params.pageSize ?? 100,
              'page[after]': afterCursor,
            },
            options,
          },
          ZCommentsResponse,
        ),
      (answer, cursor, loadAfter) =>
        new TicketCommentsPage(answer.comments, answer.users, cursor, loadAfter),
    );
  }
}
