import { z } from 'zod';
import { ZCursorMeta } from './common';
import { ZTicket } from './ticket';
import { ZTriggerCondition, ZTriggerConditionInput } from './trigger';

/** A view's column in its `execution`: a system column by name, or a custom field by its id. */
export const ZViewColumn = z.looseObject({
  id: z.union([z.string(), z.number()]),
  title: z.string().optional(),
});

export const ZView = z.looseObject({
  id: z.number(),
  title: z.string(),
  active: z.boolean().optional(),
  position: z.number().nullable().optional(),
  description: z.string().nullable().optional(),
  /** Null when every agent of the account sees it (a shared view). */
  restriction: z.looseObject({ type: z.string() }).nullable().optional(),
  conditions: z.looseObject({
    all: z.array(ZTriggerCondition).default([]),
    any: z.array(ZTriggerCondition).default([]),
  }),
  execution: z
    .looseObject({
      columns: z.array(ZViewColumn).optional(),
      sort_by: z.string().nullable().optional(),
      sort_order: z.string().nullable().optional(),
    })
    .optional(),
});
export type TView = z.infer<typeof ZView>;

export const ZViewResponse = z.looseObject({ view: ZView });
export const ZViewsResponse = z.looseObject({
  views: z.array(ZView),
  meta: ZCursorMeta.optional(),
});
export const ZViewTicketsResponse = z.looseObject({
  tickets: z.array(ZTicket),
  meta: ZCursorMeta.optional(),
});

const ZViewOrder = z.enum(['asc', 'desc']);

/**
 * Create View's body: the conditions go in top-level `all` and `any` (the answer shows them under
 * `conditions`); `all` must check status, type, group_id, assignee_id or requester_id. Without
 * `restriction` every agent sees the view.
 */
export const ZViewCreateInput = z.strictObject({
  title: z.string().min(1),
  description: z.string().optional(),
  active: z.boolean().optional(),
  position: z.number().int().optional(),
  all: z.array(ZTriggerConditionInput).min(1),
  any: z.array(ZTriggerConditionInput).optional(),
  output: z
    .strictObject({
      /** System column names or custom field ids; at most 10. */
      columns: z
        .array(z.union([z.string().min(1), z.number().int().positive()]))
        .min(1)
        .max(10),
      group_by: z.string().min(1).optional(),
      group_order: ZViewOrder.optional(),
      sort_by: z.string().min(1).optional(),
      sort_order: ZViewOrder.optional(),
    })
    .optional(),
  restriction: z
    .strictObject({
      type: z.enum(['Group', 'User']),
      id: z.number().int().positive().optional(),
      ids: z.array(z.number().int().positive()).min(1).optional(),
    })
    .optional(),
});
export type TViewCreateInput = z.infer<typeof ZViewCreateInput>;

/** Update View: every property optional; a condition array given replaces the view's. */
export const ZViewUpdateInput = ZViewCreateInput.partial();
export type TViewUpdateInput = z.infer<typeof ZViewUpdateInput>;
