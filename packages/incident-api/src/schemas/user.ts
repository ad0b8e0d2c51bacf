import { z } from 'zod';
import { ZTimestamp } from './common';
import { ZUserRole } from './vocabularies';

export const ZUser = z.looseObject({
  id: z.string(),
  email: z.string(),
  /** first name; may be absent or null */
  name: z.string().nullish(),
  surname: z.string().nullish(),
  roles: z.array(ZUserRole),
  /** absent for staff */
  clientId: z.string().optional(),
  clientName: z.string().optional(),
  mfaEnabled: z.boolean(),
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
});
export type TUser = z.infer<typeof ZUser>;
