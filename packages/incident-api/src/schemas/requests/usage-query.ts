import type { z } from 'zod';
import { nonEmptyString, strictRequest } from './fields';

/** GET /v1/usage (default clientId = the key owner). */
export const ZUsageQuery = strictRequest('a usage query', {
  clientId: nonEmptyString('clientId').optional(),
});
export type TUsageQuery = z.infer<typeof ZUsageQuery>;
