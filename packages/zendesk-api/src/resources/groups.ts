import type { HttpTransport } from '../core/http-transport';
import type { ZendeskRequestOptions } from '../core/options';
import { type CursorPage, cursorList, type PagePromise } from '../core/pagination';
import { type TGroup, ZGroupsResponse } from '../schemas/group';

// Zendesk's resource scopes name no groups scope; group reads go with users (as group
// memberships do), and `read` covers them too.
const USERS_READ = 'users:read';

export class Groups {
  constructor(private readonly transport: HttpTransport) {}

  /** GET /api/v2/groups.json, cursor-paginated (100 a page). */
  list(options?: ZendeskRequestOptions): PagePromise<CursorPage<TGroup>, TGroup> {
    return cursorList(
      (afterCursor) =>
        this.transport.json(
          {
            method: 'GET',
            path: '/api/v2/groups.json',
            query: { 'page[size]': 100, 'page[after]': afterCursor },
            requiredScope: USERS_READ,
            options,
          },
          ZGroupsResponse,
        ),
      (answer) => answer.groups,
    );
  }
}
