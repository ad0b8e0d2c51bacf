import { z } from 'zod';
import { ZCursorMeta } from './common';

export const ZGroup = z.looseObject({
  id: z.number(),
  name: z.string(),
  deleted: z.boolean().optional(),
});
export type TGroup = z.infer<typeof ZGroup>;

export const ZGroupsResponse = z.looseObject({
  groups: z.array(ZGroup),
  meta: ZCursorMeta.optional(),
});
