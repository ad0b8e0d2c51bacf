import {
  issueField,
  ZApproveTakedownRequest,
  ZCommentRequest,
  ZIncidentsQuery,
  ZReportRequest,
  ZResolutionsQuery,
  ZUsageQuery,
  ZUsersQuery,
  ZWebhookCreateRequest,
  ZWebhookUpdateRequest,
} from '@incident-desk/incident-api';
import type { z } from 'zod';
import { HttpError } from './errors';

// Requests are validated with the same strict schemas the typed client writes with, so the sandbox
// and the client cannot drift apart. The first issue becomes a 400 naming its field.

function check(schema: z.ZodType, input: unknown): void {
  const result = schema.safeParse(input);
  if (result.success) return;
  const issue = result.error.issues[0];
  if (!issue) throw new HttpError(400, 'Invalid request');
  throw new HttpError(400, `Invalid parameter '${issueField(issue)}': ${issue.message}`);
}

export const validateIncidentsQuery = (q: Record<string, string>) => check(ZIncidentsQuery, q);
export const validateResolutionsQuery = (q: Record<string, string>) => check(ZResolutionsQuery, q);
export const validateUsersQuery = (q: Record<string, string>) => check(ZUsersQuery, q);
export const validateUsageQuery = (q: Record<string, string>) => check(ZUsageQuery, q);
/** Attachments arrive as multipart parts and are counted and sized while streaming, not here. */
export const validateReportBody = (body: Record<string, unknown>) => check(ZReportRequest, body);
export const validateApproveBody = (body: Record<string, unknown>) =>
  check(ZApproveTakedownRequest, body);
export const validateCommentBody = (body: Record<string, unknown>) => check(ZCommentRequest, body);
export const validateWebhookCreateBody = (body: Record<string, unknown>) =>
  check(ZWebhookCreateRequest, body);
export const validateWebhookUpdateBody = (body: Record<string, unknown>) =>
  check(ZWebhookUpdateRequest, body);
