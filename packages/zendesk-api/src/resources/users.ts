import { encodePath } from '../core/encode-path';
import type { HttpTransport } from '../core/http-transport';
import type { ZendeskRequestOptions } from '../core/options';
import {
  type TGroupMembership,
  type TUser,
  ZGroupMembershipsResponse,
  ZUserResponse,
} from '../schemas/user';

// Zendesk answers 403 on user reads without this scope; naming it lets ZendeskForbiddenError
// report `missingScope` even when the body does not.
const USERS_READ = 'users:read';

export class Users {
  constructor(private readonly transport: HttpTransport) {}

  /** GET /api/v2/users/me.json: the user the token acts as. */
  async me(options?: ZendeskRequestOptions): Promise<TUser> {
    const response = await this.transport.json(
      { method: 'GET', path: '/api/v2/users/me.json', requiredScope: USERS_READ, options },
      ZUserResponse,
    );
    return response.user;
  }

  /** GET /api/v2/users/{id}.json */
  async show(userId: number, options?: ZendeskRequestOptions): Promise<TUser> {
    const response = await this.transport.json(
      {
        method: 'GET',
        path: encodePath`/api/v2/users/${userId}.json`,
        requiredScope: USERS_READ,
        options,
      },
      ZUserResponse,
    );
    return response.user;
  }

  /** GET /api/v2/users/{id}/group_memberships.json: the groups an agent belongs to (first 100). */
  async groupMemberships(
    userId: number,
    options?: ZendeskRequestOptions,
  ): Promise<TGroupMembership[]> {
    const response = await this.transport.json(
      {
        method: 'GET',
        path: encodePath`/api/v2/users/${userId}/group_memberships.json`,
        query: { per_page: 100 },
        requiredScope: USERS_READ,
        options,
      },
      ZGroupMembershipsResponse,
    );
    return response.group_memberships;
  }
}
