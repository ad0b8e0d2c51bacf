import { z } from 'zod';
import { ZCursorMeta } from './common';

export const ZTicketField = z.looseObject({
  id: z.number(),
  type: z.string(),
  title: z.string(),
  active: z.boolean().optional(),
  description: z.string().nullable().optional(),
  custom_field_options: z
    .array(z.looseObject({ id: z.number().optional(), name: z.string(), value: z.string() }))
    .nullable()
    .optional(),
});
export type TTicketField = z.infer<typeof ZTicketField>;

export const ZTicketFieldResponse = z.looseObject({ ticket_field: ZTicketField });
export const ZTicketFieldsResponse = z.looseObject({
  ticket_fields: z.array(ZTicketField),
  meta: ZCursorMeta.optional(),
});

export const ZTicketFieldCreateInput = z.strictObject({
  type: z.enum([
    'text',
    'textarea',
    'checkbox',
    'date',
    'integer',
    'decimal',
    'regexp',
    'tagger',
    'multiselect',
  ]),
  title: z.string().min(1),
  description: z.string().optional(),
  active: z.boolean().optional(),
  required: z.boolean().optional(),
  visible_in_portal: z.boolean().optional(),
  editable_in_portal: z.boolean().optional(),
  custom_field_options: z
    .array(z.strictObject({ name: z.string().min(1), value: z.string().min(1).regex(/^\S+$/) }))
    .optional(),
});
export type TTicketFieldCreateInput = z.infer<typeof ZTicketFieldCreateInput>;

/** PUT /api/v2/ticket_fields/{id}: options given replace all of the field's options. */
export const ZTicketFieldUpdateInput = ZTicketFieldCreateInput.omit({ type: true }).partial();
export type TTicketFieldUpdateInput = z.infer<typeof ZTicketFieldUpdateInput>;
