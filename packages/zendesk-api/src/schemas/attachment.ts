import { z } from 'zod';

export const ZAttachment = z.looseObject({
  id: z.number(),
  file_name: z.string(),
  content_url: z.string(),
  content_type: z.string().nullable().optional(),
  size: z.number().nullable().optional(),
  inline: z.boolean().optional(),
});
export type TAttachment = z.infer<typeof ZAttachment>;
