import {
  ATTACH_FILE_FIELD,
  COMMENT_TEXT_FIELD,
  INCIDENT_ACTION_PATHS,
  MAX_ATTACH_BYTES,
} from '../../assumptions';
import { z } from 'zod';
import {
  ZApproveTakedownRequest,
  type TApproveTakedownRequest,
} from '../../schemas/requests/approve-takedown';
import { ZCommentRequest, type TCommentRequest } from '../../schemas/requests/comment';
import { ZIncidentsQuery, type TIncidentsQuery } from '../../schemas/requests/incidents-query';
import {
  MAX_REPORT_BYTES,
  ZReportAttachment,
  ZReportRequest,
  type TReportAttachment,
  type TReportRequest,
} from '../../schemas/requests/report';
import {
  ZApproveTakedownResponse,
  ZIncidentListResponse,
  ZIncidentResponse,
  ZReportResponse,
  ZSnapshotsResponse,
  type TApproveTakedownResponse,
  type TIncidentListResponse,
} from '../../schemas/envelopes';
import type { TDetailedIncident } from '../../schemas/detailed-incident';
import type { TIncident } from '../../schemas/incident';
import type { TSnapshotsData } from '../../schemas/snapshot';
import { duplicateFromSuccess } from '../error-mapping';
import { encodeMultipart } from '../multipart';
import type { Operation } from '../operations';
import type { RequestOptions } from '../options';
import { CursorPaginator } from '../pagination';
import { path } from '../path';
import type { RequestBody, Transport } from '../transport';
import { ZAnyResponse } from '../loose';
import { compact, validateRequest } from '../validate';
import { RequestValidationError } from '../../errors';
import { withClientId } from './with-client-id';

export interface ReportResult {
  /** opaque; store it next to your own record */
  id: string;
  /** dashboard link */
  url: string | undefined;
  message: string | undefined;
}

const ZAttachments = z
  .array(ZReportAttachment, { error: 'attachments must be an array of files' })
  .min(1, { error: 'attachments must contain at least one file' });

/**
 * A JSON report, encoded now so its exact size is checked against the 10 MB limit before sending:
 * the schema counts the text itself, but JSON adds keys, quotes and escapes ("\"" for ").
 */
function encodeJsonReport(fields: Record<string, unknown>): RequestBody {
  const bytes = new TextEncoder().encode(JSON.stringify(fields));
  if (bytes.byteLength >= MAX_REPORT_BYTES) {
    throw new RequestValidationError(
      [
        {
          code: 'custom',
          path: [],
          message: `a report must total under ${MAX_REPORT_BYTES} bytes (10 MB); the encoded JSON has ${bytes.byteLength}`,
          input: undefined,
        },
      ],
      'report',
    );
  }
  return { kind: 'bytes', value: bytes, contentType: 'application/json' };
}

export class IncidentsResource {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/incident/tkd. Never retried; a duplicate throws DuplicateIncidentError. */
  reportTakedown(report: TReportRequest, options?: RequestOptions): Promise<ReportResult> {
    return this.report('incidents.reportTakedown', '/v1/incident/tkd', report, options);
  }

  /** POST /v1/incident/monitor. Never retried; a duplicate throws DuplicateIncidentError. */
  reportMonitoring(report: TReportRequest, options?: RequestOptions): Promise<ReportResult> {
    return this.report('incidents.reportMonitoring', '/v1/incident/monitor', report, options);
  }

  /** GET /v1/incident/{id} */
  async retrieve(id: string, options?: RequestOptions): Promise<TDetailedIncident> {
    const result = await this.transport.request({
      operation: 'incidents.retrieve',
      method: 'GET',
      path: path`/v1/incident/${id}`,
      schema: ZIncidentResponse,
      options,
    });
    return result.data.data;
  }

  /** GET /v1/incident/subject/{subject}: resolves email, phone and ipv4 incidents; not a duplicate check. */
  async retrieveBySubject(subject: string, options?: RequestOptions): Promise<TDetailedIncident> {
    const result = await this.transport.request({
      operation: 'incidents.retrieveBySubject',
      method: 'GET',
      path: path`/v1/incident/subject/${subject}`,
      schema: ZIncidentResponse,
      options,
    });
    return result.data.data;
  }

  /** GET /v1/incidents, one page. */
  async listPage(
    query: TIncidentsQuery = {},
    options?: RequestOptions,
  ): Promise<TIncidentListResponse> {
    const validated = validateRequest(
      ZIncidentsQuery,
      withClientId(this.transport, query),
      'incidents query',
    );
    const result = await this.transport.request({
      operation: 'incidents.list',
      method: 'GET',
      path: '/v1/incidents',
      query: validated,
      schema: ZIncidentListResponse,
      options,
    });
    return result.data;
  }

  /**
   * GET /v1/incidents, every page: `for await (const incident of client.incidents.list(q))`.
   * The query is validated now (throws RequestValidationError) and repeated on every page.
   */
  list(query: TIncidentsQuery = {}, options?: RequestOptions): CursorPaginator<TIncident> {
    const validated = validateRequest(
      ZIncidentsQuery,
      withClientId(this.transport, query),
      'incidents query',
    );
    return new CursorPaginator(
      (cursor) => this.listPage(compact({ ...validated, cursor }), options),
      validated.cursor,
    );
  }

  /** GET /v1/incident/{incidentId}/snapshots (id or inc_ reference); snapshots newest first. */
  async snapshots(incidentId: string, options?: RequestOptions): Promise<TSnapshotsData> {
    const result = await this.transport.request({
      operation: 'incidents.snapshots',
      method: 'GET',
      path: path`/v1/incident/${incidentId}/snapshots`,
      schema: ZSnapshotsResponse,
      options,
    });
    return result.data.data;
  }

  /**
   * POST /v1/incident/{id}/approve-takedown. Throws InsufficientCreditsError (403),
   * NotAwaitingApprovalError (409), TemporarilyUnavailableError (503, retried per policy).
   */
  async approveTakedown(
    id: string,
    request: TApproveTakedownRequest,
    options?: RequestOptions,
  ): Promise<TApproveTakedownResponse> {
    const body = validateRequest(ZApproveTakedownRequest, request, 'approve-takedown request');
    const result = await this.transport.request({
      operation: 'incidents.approveTakedown',
      method: 'POST',
      path: path`/v1/incident/${id}/approve-takedown`,
      body: { kind: 'json', value: body },
      schema: ZApproveTakedownResponse,
      options,
    });
    return result.data;
  }

  /** POST /v1/incident/{id}/comment. Body field name and response assumed (assumptions.ts). */
  async comment(id: string, request: TCommentRequest, options?: RequestOptions): Promise<unknown> {
    const { comment, author } = validateRequest(ZCommentRequest, request, 'comment request');
    const result = await this.transport.request({
      operation: 'incidents.comment',
      method: 'POST',
      path: path`/v1/incident/${id}/comment`,
      body: { kind: 'json', value: compact({ [COMMENT_TEXT_FIELD]: comment, author }) },
      schema: ZAnyResponse,
      options,
    });
    return result.data;
  }

  /** POST /v1/incident/{id}/attach, multipart, under 50 MB. Shape assumed (assumptions.ts). */
  async attach(
    id: string,
    attachments: readonly TReportAttachment[],
    options?: RequestOptions,
  ): Promise<unknown> {
    const files = validateRequest(ZAttachments, attachments, 'attachments');
    const body = await encodeMultipart({
      fields: {},
      fileField: ATTACH_FILE_FIELD,
      files,
      maxBytes: MAX_ATTACH_BYTES + 1,
      limitName: 'attachments (50 MB per request)',
    });
    const result = await this.transport.request({
      operation: 'incidents.attach',
      method: 'POST',
      path: path`/v1/incident/${id}/attach`,
      body,
      schema: ZAnyResponse,
      options,
    });
    return result.data;
  }

  /** POST /v1/incident/{id}/tkd on an existing incident. Shape assumed (assumptions.ts). */
  requestTakedown(id: string, fields: Record<string, unknown> = {}, options?: RequestOptions) {
    return this.action(
      'incidents.requestTakedown',
      id,
      INCIDENT_ACTION_PATHS.takedown,
      fields,
      options,
    );
  }

  /** POST /v1/incident/{id}/monitor on an existing incident. Shape assumed (assumptions.ts). */
  requestMonitoring(id: string, fields: Record<string, unknown> = {}, options?: RequestOptions) {
    return this.action(
      'incidents.requestMonitoring',
      id,
      INCIDENT_ACTION_PATHS.monitor,
      fields,
      options,
    );
  }

  /** POST /v1/incident/{id}/safe. Shape assumed (assumptions.ts). */
  markSafe(id: string, fields: Record<string, unknown> = {}, options?: RequestOptions) {
    return this.action('incidents.markSafe', id, INCIDENT_ACTION_PATHS.safe, fields, options);
  }

  private async action(
    operation: Operation,
    id: string,
    verb: string,
    fields: Record<string, unknown>,
    options?: RequestOptions,
  ): Promise<unknown> {
    const result = await this.transport.request({
      operation,
      method: 'POST',
      path: path`/v1/incident/${id}/${verb}`,
      body: { kind: 'json', value: fields },
      schema: ZAnyResponse,
      options,
    });
    return result.data;
  }

  private async report(
    operation: Operation,
    reportPath: string,
    input: TReportRequest,
    options?: RequestOptions,
  ): Promise<ReportResult> {
    const report = validateRequest(ZReportRequest, withClientId(this.transport, input), 'report');
    const { attachments, ...fields } = report;
    const body: RequestBody =
      attachments && attachments.length > 0
        ? await encodeMultipart({
            fields,
            fileField: 'attachments',
            files: attachments,
            maxBytes: MAX_REPORT_BYTES,
            limitName: 'a report',
          })
        : encodeJsonReport(fields);
    const result = await this.transport.request({
      operation,
      method: 'POST',
      path: reportPath,
      body,
      schema: ZReportResponse,
      // a report is never retried, whatever the caller asks
      options: { ...options, maxRetries: 0 },
    });
    const { id, url, message } = result.data;
    if (id === undefined) {
      throw duplicateFromSuccess({
        status: result.status,
        body: result.data,
        headers: result.headers,
        requestId: result.requestId,
        operation,
      });
    }
    return { id, url, message };
  }
}
