import { z } from 'zod';
import { ZCursorMeta } from './common';

export const ZTriggerCondition = z.looseObject({
  field: z.string(),
  operator: z.string(),
  value: z.unknown().optional(),
});

export const ZTriggerAction = z.looseObject({
  field: z.string(),
  value: z.unknown().optional(),
});

export const ZTrigger = z.looseObject({
  id: z.number(),
  title: z.string(),
  active: z.boolean().optional(),
  position: z.number().nullable().optional(),
  description: z.string().nullable().optional(),
  category_id: z.union([z.string(), z.number()]).nullable().optional(),
  conditions: z.looseObject({
    all: z.array(ZTriggerCondition).default([]),
    any: z.array(ZTriggerCondition).default([]),
  }),
  actions: z.array(ZTriggerAction),
});
export type TTrigger = z.infer<typeof ZTrigger>;

export const ZTriggerResponse = z.looseObject({ trigger: ZTrigger });
export const ZTriggersResponse = z.looseObject({
  triggers: z.array(ZTrigger),
  meta: ZCursorMeta.optional(),
});

const ZConditionValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.string()),
]);

export const ZTriggerConditionInput = z.strictObject({
  field: z.string().min(1),
  operator: z.string().min(1),
  value: ZConditionValue.optional(),
});

export const ZTriggerActionInput = z.strictObject({
  field: z.string().min(1),
  // notification_webhook takes [webhookId, bodyTemplate]
  value: z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))]),
});

export const ZTriggerCreateInput = z.strictObject({
  title: z.string().min(1),
  conditions: z.strictObject({
    all: z.array(ZTriggerConditionInput).optional(),
    any: z.array(ZTriggerConditionInput).optional(),
  }),
  actions: z.array(ZTriggerActionInput).min(1),
  active: z.boolean().optional(),
  description: z.string().optional(),
  category_id: z.string().min(1).optional(),
  position: z.number().int().optional(),
});
export type TTriggerCreateInput = z.infer<typeof ZTriggerCreateInput>;

export const ZTriggerUpdateInput = ZTriggerCreateInput.partial();
export type TTriggerUpdateInput = z.infer<typeof ZTriggerUpdateInput>;
