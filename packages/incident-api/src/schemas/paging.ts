import { z } from 'zod';

/** Cursor paging (incidents, resolutions). The end is reached when `next` is null or absent. */
export const ZCursorPaging = z.looseObject({
  /** current position; absent on a resolutions search response */
  cursor: z.string().optional(),
  next: z.string().nullish(),
  limit: z.number(),
  count: z.number(),
  /** only with includeTotal=true */
  total: z.number().optional(),
});
export type TCursorPaging = z.infer<typeof ZCursorPaging>;

/** Offset paging (users). Iterate until offset + count reaches total. */
export const ZOffsetPaging = z.looseObject({
  limit: z.number(),
  offset: z.number(),
  count: z.number(),
  total: z.number(),
});
export type TOffsetPaging = z.infer<typeof ZOffsetPaging>;
