import { z } from 'zod';

export const ZSearchResult = z.looseObject({
  id: z.number(),
  result_type: z.string().optional(),
});
export type TSearchResult = z.infer<typeof ZSearchResult>;

export const ZSearchResponse = z.looseObject({
  results: z.array(ZSearchResult),
  next_page: z.string().nullable().optional(),
  previous_page: z.string().nullable().optional(),
  count: z.number().optional(),
});
