import { z } from 'zod';
import { ZCursorMeta, ZCustomFieldInput, ZCustomFieldValue, ZId, ZTag } from './common';

export const ZTicket = z.looseObject({
  id: z.number(),
  url: z.string().optional(),
  subject: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  status: z.string().optional(),
  type: z.string().nullable().optional(),
  priority: z.string().nullable().optional(),
  requester_id: z.number().nullable().optional(),
  submitter_id: z.number().nullable().optional(),
  assignee_id: z.number().nullable().optional(),
  group_id: z.number().nullable().optional(),
  organization_id: z.number().nullable().optional(),
  external_id: z.string().nullable().optional(),
  tags: z.array(z.string()).default([]),
  custom_fields: z.array(ZCustomFieldValue).default([]),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type TTicket = z.infer<typeof ZTicket>;

export const ZAuditEvent = z.looseObject({
  id: z.number().optional(),
  type: z.string(),
  /** `Comment` events: the comment's text. */
  body: z.string().nullable().optional(),
});
export type TAuditEvent = z.infer<typeof ZAuditEvent>;

/** `metadata` of an audit: Zendesk's `system` data and the update's own `custom` data. */
export const ZAuditMetadata = z.looseObject({
  system: z.unknown().optional(),
  custom: z.record(z.string(), z.unknown()).nullable().optional(),
});

export const ZTicketAudit = z.looseObject({
  id: z.number().optional(),
  ticket_id: z.number().optional(),
  author_id: z.number().nullable().optional(),
  created_at: z.string().optional(),
  metadata: ZAuditMetadata.nullable().optional(),
  events: z.array(ZAuditEvent).default([]),
});
export type TTicketAudit = z.infer<typeof ZTicketAudit>;

export const ZTicketAuditsResponse = z.looseObject({
  audits: z.array(ZTicketAudit),
  meta: ZCursorMeta.optional(),
});

/**
 * Write only: kept on the update's audit as `metadata.custom` and never shown to agents
 * (Zendesk, "Setting metadata": up to 1 KB per audit).
 */
export const ZAuditMetadataInput = z.record(z.string(), z.unknown());

export const ZTicketResponse = z.looseObject({ ticket: ZTicket });
export const ZTicketWriteResponse = z.looseObject({
  ticket: ZTicket,
  audit: ZTicketAudit.optional(),
});
export type TTicketWriteResponse = z.infer<typeof ZTicketWriteResponse>;

export const ZTicketStatus = z.enum(['new', 'open', 'pending', 'hold', 'solved', 'closed']);

export const ZTicketCommentInput = z
  .strictObject({
    body: z.string().min(1).optional(),
    html_body: z.string().min(1).optional(),
    public: z.boolean().optional(),
    /** Upload tokens from uploads.create. */
    uploads: z.array(z.string().min(1)).optional(),
    author_id: ZId.optional(),
  })
  .refine((comment) => comment.body !== undefined || comment.html_body !== undefined, {
    message: 'a comment needs body or html_body',
  });
export type TTicketCommentInput = z.infer<typeof ZTicketCommentInput>;

export const ZTicketUpdateInput = z.strictObject({
  comment: ZTicketCommentInput.optional(),
  custom_fields: z.array(ZCustomFieldInput).optional(),
  additional_tags: z.array(ZTag).optional(),
  remove_tags: z.array(ZTag).optional(),
  status: ZTicketStatus.optional(),
  assignee_id: ZId.nullable().optional(),
  group_id: ZId.nullable().optional(),
  /** With updated_stamp, Zendesk answers 409 instead of overwriting a newer change (and a retried PUT cannot apply twice). */
  safe_update: z.boolean().optional(),
  updated_stamp: z.string().optional(),
  metadata: ZAuditMetadataInput.optional(),
});
export type TTicketUpdateInput = z.infer<typeof ZTicketUpdateInput>;

export const ZTicketCreateInput = z.strictObject({
  subject: z.string().min(1),
  comment: ZTicketCommentInput,
  type: z.enum(['problem', 'incident', 'question', 'task']).optional(),
  priority: z.enum(['urgent', 'high', 'normal', 'low']).optional(),
  status: ZTicketStatus.optional(),
  tags: z.array(ZTag).optional(),
  custom_fields: z.array(ZCustomFieldInput).optional(),
  requester_id: ZId.optional(),
  requester: z.strictObject({ email: z.email(), name: z.string().min(1).optional() }).optional(),
  group_id: ZId.optional(),
  assignee_id: ZId.optional(),
  external_id: z.string().min(1).optional(),
  /** A follow-up of this closed ticket (Zendesk refuses an open source ticket). */
  via_followup_source_id: ZId.optional(),
  metadata: ZAuditMetadataInput.optional(),
});
export type TTicketCreateInput = z.infer<typeof ZTicketCreateInput>;
