import { Router } from 'express';
import { cursorPage } from '../../domain/cursor-page';
import { filterIncidents } from '../../domain/incident-filter';
import { toDetail, toListItem, toSnapshot } from '../../domain/incident-views';
import { isStatus } from '../../domain/statuses';
import type { IncidentRecord } from '../../state/model';
import { apiKeyOf, clientScope } from '../auth';
import type { SandboxContext } from '../context';
import { badRequest, notFound } from '../errors';
import { parseBooleanParam, parseDateParam, parseIntegerParam, singleValuedQuery } from '../query';
import { validateIncidentsQuery } from '../request-validation';

const DEFAULT_LIST_LIMIT = 5000;
/** Larger limits are accepted and served as pages of this size (the spec names no maximum). */
const MAX_LIST_LIMIT = 5000;

/** GET /v1/incidents, /v1/incident/{id}, /v1/incident/subject/{subject}, /v1/incident/{id}/snapshots. */
export function incidentReadRoutes({ store }: SandboxContext): Router {
  const router = Router();

  router.get('/incidents', (req, res) => {
    const q = singleValuedQuery(req);
    validateIncidentsQuery(q);
    if (q.reinitiatedAfter !== undefined)
      throw badRequest('reinitiatedAfter', 'only supported on /v1/incidents/resolutions');
    if (q.minTakedownAttempts !== undefined)
      throw badRequest('minTakedownAttempts', 'only supported on /v1/incidents/resolutions');
    const includeTotal = parseBooleanParam('includeTotal', q.includeTotal) ?? false;
    if (includeTotal && q.statusVerbose !== undefined) {
      throw badRequest('statusVerbose', 'cannot be combined with includeTotal; use status');
    }
    const status = q.status ?? q.statusVerbose;
    if (status !== undefined && !isStatus(status))
      throw badRequest(
        q.status !== undefined ? 'status' : 'statusVerbose',
        `unknown status '${status}'`,
      );
    const limit = Math.min(
      parseIntegerParam('limit', q.limit, 1, Number.MAX_SAFE_INTEGER) ?? DEFAULT_LIST_LIMIT,
      MAX_LIST_LIMIT,
    );
    const clientIds = clientScope(apiKeyOf(res), q.clientId);
    const filtered = filterIncidents(store.state.incidents, {
      clientIds,
      fromDate: parseDateParam('fromDate', q.fromDate),
      toDate: parseDateParam('toDate', q.toDate),
      status,
      incidentType: q.incidentType,
    });
    let after: IncidentRecord | undefined;
    if (q.cursor !== undefined) {
      after = store.findIncident(q.cursor, clientIds);
      if (!after)
        throw badRequest('cursor', 'unknown cursor; pass paging.next of the previous page');
    }
    const page = cursorPage(filtered, { after, limit });
    const last = page.items[page.items.length - 1];
    res.json({
      message: 'success',
      data: page.items.map(toListItem),
      paging: {
        ...(last ? { cursor: last.id } : q.cursor ? { cursor: q.cursor } : {}),
        next: page.next,
        limit,
        count: page.items.length,
        ...(includeTotal ? { total: filtered.length } : {}),
      },
    });
  });

  router.get('/incident/subject/:subject', (req, res) => {
    const q = singleValuedQuery(req);
    const clientIds = clientScope(apiKeyOf(res), q.clientId);
    const wanted = req.params.subject.trim().toLowerCase();
    const found = filterIncidents(store.state.incidents, { clientIds }).find(
      (i) =>
        i.subject.toLowerCase() === wanted ||
        i.url?.toLowerCase() === wanted ||
        i.domain === wanted,
    );
    if (!found) throw notFound('Incident for this subject');
    res.json({ message: 'success', data: toDetail(found) });
  });

  router.get('/incident/:id/snapshots', (req, res) => {
    const q = singleValuedQuery(req);
    const incident = store.findIncident(req.params.id, clientScope(apiKeyOf(res), q.clientId));
    if (!incident) throw notFound();
    res.json({
      message: 'success',
      data: { incidentId: incident.id, snapshots: incident.snapshots.map(toSnapshot) },
    });
  });

  router.get('/incident/:id', (req, res) => {
    const q = singleValuedQuery(req);
    const incident = store.findIncident(req.params.id, clientScope(apiKeyOf(res), q.clientId));
    if (!incident) throw notFound();
    res.json({ message: 'success', data: toDetail(incident) });
  });

  return router;
}
