import { ZUsersResponse, type TUsersResponse } from '../../schemas/envelopes';
import { ZUsersQuery, type TUsersQuery } from '../../schemas/requests/users-query';
import type { TUser } from '../../schemas/user';
import type { RequestOptions } from '../options';
import { OffsetPaginator } from '../pagination';
import type { Transport } from '../transport';
import { validateRequest } from '../validate';
import { withClientId } from './with-client-id';

export class UsersResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/users, one page. */
  async listPage(query: TUsersQuery = {}, options?: RequestOptions): Promise<TUsersResponse> {
    const validated = validateRequest(
      ZUsersQuery,
      withClientId(this.transport, query),
      'users query',
    );
    const result = await this.transport.request({
      operation: 'users.list',
      method: 'GET',
      path: '/v1/users',
      query: validated,
      schema: ZUsersResponse,
      options,
    });
    return result.data;
  }

  /** Every user, by offset until offset + count reaches total; filters repeated on every page. */
  list(query: TUsersQuery = {}, options?: RequestOptions): OffsetPaginator<TUser> {
    const validated = validateRequest(
      ZUsersQuery,
      withClientId(this.transport, query),
      'users query',
    );
    return new OffsetPaginator(
      (offset) => this.listPage({ ...validated, offset }, options),
      validated.offset ?? 0,
    );
  }
}
