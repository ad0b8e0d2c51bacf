import { z } from 'zod';

export const ZUser = z.looseObject({
  id: z.number(),
  name: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  role: z.string().nullable().optional(),
  locale: z.string().nullable().optional(),
  active: z.boolean().optional(),
  suspended: z.boolean().optional(),
  /** 0 custom, 1 light agent, 2 chat agent, 3 contributor, 4 admin, 5 billing admin; null for legacy roles. */
  role_type: z.number().nullable().optional(),
  /** `organization`, `groups`, `assigned` or `requested`; null = every ticket. */
  ticket_restriction: z.string().nullable().optional(),
  organization_id: z.number().nullable().optional(),
  default_group_id: z.number().nullable().optional(),
});
export type TUser = z.infer<typeof ZUser>;

export const ZUserResponse = z.looseObject({ user: ZUser });

export const ZGroupMembership = z.looseObject({
  id: z.number().optional(),
  user_id: z.number(),
  group_id: z.number(),
});
export type TGroupMembership = z.infer<typeof ZGroupMembership>;

export const ZGroupMembershipsResponse = z.looseObject({
  group_memberships: z.array(ZGroupMembership),
  next_page: z.string().nullable().optional(),
});
