import { assumptions } from '@incident-desk/incident-api';
import { Router, type Request, type Response } from 'express';
import { addHistory } from '../../domain/history';
import { consumeTakedownCredit, hasTakedownCredit } from '../../domain/credits';
import { isEmail } from '../../domain/subject-formats';
import { changeStatus } from '../../domain/transitions';
import type { IncidentRecord } from '../../state/model';
import { apiKeyOf, clientScope, requestedClientId } from '../auth';
import type { SandboxContext } from '../context';
import { badRequest, HttpError, notFound } from '../errors';
import { isMultipart, readMultipart } from '../multipart';
import { validateApproveBody, validateCommentBody } from '../request-validation';

/** "50 MB per request", read as 50,000,000 bytes like the client (readMultipart's limit is exclusive). */
const ATTACH_MAX_BYTES = assumptions.MAX_ATTACH_BYTES + 1;
const AUTHOR_MAX = 256;

function jsonBody(req: Request): Record<string, unknown> {
  const body: unknown = req.body ?? {};
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('body', 'must be a JSON object');
  return body as Record<string, unknown>;
}

/** Approve, comment, attach, and request takedown / monitoring / mark safe on an existing incident. */
export function incidentActionRoutes({ store, dispatcher }: SandboxContext): Router {
  const router = Router();

  const incidentFor = (req: Request, res: Response): IncidentRecord => {
    const scope = clientScope(apiKeyOf(res), requestedClientId(req));
    const incident = store.findIncident(String(req.params.id), scope);
    if (!incident) throw notFound();
    return incident;
  };

  router.post('/incident/:id/approve-takedown', (req, res) => {
    const body = jsonBody(req);
    const author = body.author;
    if (author === undefined || author === null) throw badRequest('author', 'is required');
    if (typeof author !== 'string') throw badRequest('author', 'must be a string');
    if (author.trim() === '') throw badRequest('author', 'must not be empty');
    if (author.length > AUTHOR_MAX)
      throw badRequest('author', `must be at most ${AUTHOR_MAX} characters`);
    validateApproveBody(body);
    const incident = incidentFor(req, res);
    if (incident.status !== 'approval_required') {
      throw new HttpError(
        409,
        `Conflict: incident is not awaiting takedown approval (status ${incident.status})`,
      );
    }
    const client = store.client(incident.clientId);
    if (!client || !hasTakedownCredit(client, store.nowMs())) {
      throw new HttpError(403, 'Forbidden: insufficient or expired takedown credits');
    }
    consumeTakedownCredit(client);
    changeStatus(
      incident,
      {
        to: 'takedown_ready',
        now: store.now(),
        message: `Takedown approved by ${author}`,
        author: { type: 'client', name: author },
        force: true,
      },
      dispatcher,
    );
    store.changed();
    res.json({ message: 'Takedown approved', id: incident.id });
  });

  router.post('/incident/:id/comment', (req, res) => {
    const body = jsonBody(req);
    const comment = body.comment;
    if (comment === undefined || comment === null)
      throw badRequest('comment', 'is required and must be a non-null string');
    if (typeof comment !== 'string') throw badRequest('comment', 'must be a string');
    if (comment.trim() === '') throw badRequest('comment', 'must not be empty');
    if (body.author !== undefined && (typeof body.author !== 'string' || !isEmail(body.author))) {
      throw badRequest('author', 'must be an email address');
    }
    validateCommentBody(body);
    const incident = incidentFor(req, res);
    const author =
      typeof body.author === 'string' ? body.author : `api-key:${apiKeyOf(res).clientId}`;
    const now = store.now();
    incident.comments.push({ timestamp: now, comment, author });
    addHistory(
      incident,
      {
        timestamp: now,
        message: `Comment: ${comment}`,
        author: {
          type: 'client',
          email: typeof body.author === 'string' ? body.author : undefined,
        },
      },
      dispatcher,
    );
    store.changed();
    res.json({ message: 'Comment added', id: incident.id });
  });

  router.post('/incident/:id/attach', async (req, res) => {
    // clientId in the query string is checked before the body is read, like every other endpoint;
    // a multipart field of that name is honoured too (and must agree with the query).
    const queryClientId = requestedClientId(req);
    clientScope(apiKeyOf(res), queryClientId);
    if (!isMultipart(req)) throw badRequest('attachments', 'send files as multipart/form-data');
    const body = await readMultipart(req, { maxFiles: 100, maxBytes: ATTACH_MAX_BYTES });
    const fieldClientId = body.fields.clientId;
    if (
      queryClientId !== undefined &&
      fieldClientId !== undefined &&
      fieldClientId !== queryClientId
    ) {
      throw badRequest('clientId', 'the query string and the form name different clients');
    }
    const scope = clientScope(apiKeyOf(res), fieldClientId ?? queryClientId);
    const incident = store.findIncident(String(req.params.id), scope);
    if (!incident) throw notFound();
    const files = body.files.filter((f) => f.field === 'attachments');
    if (files.length === 0) throw badRequest('attachments', 'at least one file is required');
    incident.attachments.push(
      ...files.map(({ fileName, size, contentType }) => ({ fileName, size, contentType })),
    );
    addHistory(
      incident,
      {
        timestamp: store.now(),
        message: `${files.length} ${files.length === 1 ? 'attachment' : 'attachments'} added`,
      },
      dispatcher,
    );
    store.changed();
    res.json({ message: 'Attachments added', id: incident.id });
  });

  router.post('/incident/:id/tkd', (req, res) => {
    const incident = incidentFor(req, res);
    incident.requestedAction = 'takedown';
    if (
      [
        'pending_review',
        'pre_weaponised',
        'blocklisted',
        'takedown_attempt_failed',
        'takedown_success',
        'closed',
      ].includes(incident.status)
    ) {
      changeStatus(
        incident,
        {
          to: 'case_building',
          now: store.now(),
          message: 'Takedown requested by client',
          author: { type: 'client' },
          force: true,
        },
        dispatcher,
      );
    } else {
      addHistory(
        incident,
        {
          timestamp: store.now(),
          message: 'Takedown requested by client',
          author: { type: 'client' },
        },
        dispatcher,
      );
    }
    store.changed();
    res.json({ message: 'Takedown requested', id: incident.id });
  });

  router.post('/incident/:id/monitor', (req, res) => {
    const incident = incidentFor(req, res);
    if (incident.status === 'takedown_in_progress')
      throw new HttpError(409, 'Conflict: a takedown is in progress');
    incident.requestedAction = 'monitor';
    if (incident.status !== 'pre_weaponised') {
      changeStatus(
        incident,
        {
          to: 'pre_weaponised',
          now: store.now(),
          message: 'Monitoring requested by client',
          author: { type: 'client' },
          force: true,
        },
        dispatcher,
      );
    }
    store.changed();
    res.json({ message: 'Monitoring requested', id: incident.id });
  });

  router.post('/incident/:id/safe', (req, res) => {
    const incident = incidentFor(req, res);
    if (incident.status !== 'closed') {
      changeStatus(
        incident,
        {
          to: 'closed',
          now: store.now(),
          message: 'Marked safe by client',
          author: { type: 'client' },
          force: true,
        },
        dispatcher,
      );
    }
    store.changed();
    res.json({ message: 'Incident marked safe', id: incident.id });
  });

  return router;
}
