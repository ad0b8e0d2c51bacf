import type { z } from 'zod';
import { USER_ROLES } from '../vocabularies';
import { enumParam, nonEmptyString, strictRequest, wholeNumberParam } from './fields';

/** GET /v1/users (clientId is required by the service when the key covers more than 10 clients). */
export const ZUsersQuery = strictRequest('a users query', {
  clientId: nonEmptyString('clientId').optional(),
  search: nonEmptyString('search').optional(),
  role: enumParam('role', USER_ROLES).optional(),
  limit: wholeNumberParam('limit', 1, 200).optional(),
  offset: wholeNumberParam('offset', 0).optional(),
});
export type TUsersQuery = z.infer<typeof ZUsersQuery>;
