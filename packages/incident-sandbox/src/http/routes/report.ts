import { MAX_REPORT_ATTACHMENTS, MAX_REPORT_BYTES } from '@incident-desk/incident-api';
import { Router, type Request } from 'express';
import {
  createIncident,
  findDuplicate,
  ReportValidationError,
  resolveReportTarget,
} from '../../domain/report';
import { isEmail } from '../../domain/subject-formats';
import { actingClient, apiKeyOf, requestedClientId } from '../auth';
import type { SandboxContext } from '../context';
import { badRequest, HttpError } from '../errors';
import { isMultipart, readMultipart } from '../multipart';
import { validateReportBody } from '../request-validation';

const STRING_FIELDS = [
  'url',
  'incidentType',
  'subject',
  'reportedBy',
  'clientId',
  'comment',
] as const;

interface ParsedReport {
  fields: Partial<Record<(typeof STRING_FIELDS)[number], string>>;
  attachments: { fileName: string; size: number; contentType: string }[];
}

async function readReport(req: Request): Promise<ParsedReport> {
  if (isMultipart(req)) {
    const body = await readMultipart(req, {
      maxFiles: MAX_REPORT_ATTACHMENTS,
      maxBytes: MAX_REPORT_BYTES,
    });
    const stray = body.files.find((f) => f.field !== 'attachments');
    if (stray) throw badRequest(stray.field, "files go in the repeated 'attachments' field");
    validateReportBody(body.fields);
    return {
      fields: Object.fromEntries(
        STRING_FIELDS.filter((f) => body.fields[f] !== undefined).map((f) => [f, body.fields[f]]),
      ),
      attachments: body.files.map(({ fileName, size, contentType }) => ({
        fileName,
        size,
        contentType,
      })),
    };
  }
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('body', 'must be a JSON object');
  const record = body as Record<string, unknown>;
  validateReportBody(record);
  const fields: ParsedReport['fields'] = {};
  for (const name of STRING_FIELDS) {
    const value = record[name];
    if (value === undefined) continue;
    if (typeof value !== 'string')
      throw badRequest(name, value === null ? 'must be a non-null string' : 'must be a string');
    fields[name] = value;
  }
  if (record.attachments !== undefined)
    throw badRequest('attachments', 'send files as multipart/form-data');
  return { fields, attachments: [] };
}

/** POST /v1/incident/tkd and /v1/incident/monitor. */
export function reportRoutes({ store, dispatcher, dashboardUrl }: SandboxContext): Router {
  const router = Router();
  for (const action of ['tkd', 'monitor'] as const) {
    router.post(`/incident/${action}`, async (req, res) => {
      const key = apiKeyOf(res);
      const { fields, attachments } = await readReport(req);
      const clientId = actingClient(key, fields.clientId ?? requestedClientId(req));
      // An empty comment is allowed here: the spec asks only for a non-null string (non-empty is the comment endpoint's rule).
      if (fields.reportedBy !== undefined && !isEmail(fields.reportedBy))
        throw badRequest('reportedBy', 'must be an email address');
      let target;
      try {
        target = resolveReportTarget({ ...fields, attachments });
      } catch (err) {
        if (err instanceof ReportValidationError) throw new HttpError(400, err.message);
        throw err;
      }
      if (findDuplicate(store, clientId, target)) {
        if (store.state.settings.duplicateResponse === 'legacy') {
          res.json({ message: 'Incident already reported' });
        } else {
          res.status(409).json({ message: 'Conflict: incident already exists' });
        }
        return;
      }
      const incident = createIncident(store, dispatcher, {
        ...target,
        clientId,
        requestedAction: action === 'tkd' ? 'takedown' : 'monitor',
        reportedBy: fields.reportedBy,
        comment: fields.comment,
        attachments,
      });
      store.changed();
      res.json({
        message:
          action === 'tkd' ? 'Incident reported for takedown' : 'Incident reported for monitoring',
        id: incident.ref,
        url: `${dashboardUrl}/incident/${incident.ref}`,
      });
    });
  }
  return router;
}
