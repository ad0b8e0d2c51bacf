import { z } from 'zod';

// Responses are read tolerantly (unknown keys pass, optional fields may be null);
// requests are written strictly (unknown keys rejected before anything is sent).

export const ZId = z.number().int().positive();

export const ZCursorMeta = z.looseObject({
  has_more: z.boolean(),
  after_cursor: z.string().nullable().optional(),
  before_cursor: z.string().nullable().optional(),
});
export type TCursorMeta = z.infer<typeof ZCursorMeta>;

export const ZCustomFieldValue = z.looseObject({
  id: z.number(),
  value: z.unknown(),
});
export type TCustomFieldValue = z.infer<typeof ZCustomFieldValue>;

export const ZCustomFieldInput = z.strictObject({
  id: ZId,
  value: z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]),
});
export type TCustomFieldInput = z.infer<typeof ZCustomFieldInput>;

export const ZTag = z.string().min(1).regex(/^\S+$/, 'tags contain no whitespace');
