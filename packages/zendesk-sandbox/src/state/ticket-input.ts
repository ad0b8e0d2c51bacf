import { z } from 'zod';

const ZId = z.coerce.number().int().positive();

const ZCommentInput = z.object({
  body: z.string().optional(),
  html_body: z.string().optional(),
  public: z.boolean().optional(),
  author_id: ZId.optional(),
  uploads: z.array(z.string()).optional(),
});
export type TCommentInput = z.infer<typeof ZCommentInput>;

export const ZTicketInput = z.object({
  subject: z.string().optional(),
  description: z.string().optional(),
  comment: ZCommentInput.optional(),
  status: z.string().optional(),
  priority: z.string().nullable().optional(),
  type: z.string().nullable().optional(),
  requester_id: ZId.optional(),
  requester: z
    .object({ name: z.string().optional(), email: z.string(), locale_id: z.number().optional() })
    .optional(),
  submitter_id: ZId.optional(),
  assignee_id: ZId.nullable().optional(),
  assignee_email: z.string().optional(),
  group_id: ZId.nullable().optional(),
  tags: z.array(z.string()).optional(),
  additional_tags: z.array(z.string()).optional(),
  remove_tags: z.array(z.string()).optional(),
  custom_fields: z.array(z.object({ id: ZId, value: z.unknown() })).optional(),
  fields: z.array(z.object({ id: ZId, value: z.unknown() })).optional(),
  external_id: z.string().nullable().optional(),
  /**
   * Write only: kept on the update's audit as `metadata.custom`, never shown to agents. Zendesk
   * documents up to 1 KB of it per audit.
   */
  metadata: z.record(z.string(), z.unknown()).optional(),
  /** Create only: the closed ticket this one follows up (Zendesk refuses any other source). */
  via_followup_source_id: ZId.optional(),
});
export type TTicketInput = z.infer<typeof ZTicketInput>;
