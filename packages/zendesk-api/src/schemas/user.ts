import { z } from 'zod';

export const ZUser = z.looseObject({
  id: z.number(),
  name: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  role: z.string().nullable().optional(),
  locale: z.string().nullable().optional(),
  active: z.boolean().optional(),
  suspended: z.boolean().optional(),
});
export type TUser = z.infer<typeof ZUser>;

export const ZUserResponse = z.looseObject({ user: ZUser });
