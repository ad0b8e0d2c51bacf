import { Router, type Request } from 'express';
import { createIncident, ReportValidationError, resolveReportTarget } from '../../domain/report';
import type { IncidentRecord } from '../../state/model';
import { HttpError } from '../errors';
import type { ControlDeps } from './control-deps';
import {
  addBlocklistListing,
  addHistoryMessage,
  addSnapshot,
  addTakedownAttempt,
  advanceIncident,
  findIncidentForControl,
} from './incident-operations';
import { parse } from './parse-body';
import {
  ZAdvance,
  ZAttempt,
  ZBlocklist,
  ZHistoryMessage,
  ZPatchIncident,
  ZSeedIncident,
  ZSnapshot,
} from './schemas';

/** Seeding incidents and moving them like analysts do. */
export function incidentControlRoutes(deps: ControlDeps): Router {
  const { store, dispatcher } = deps;
  const router = Router();
  const incident = (req: Request): IncidentRecord =>
    findIncidentForControl(deps, String(req.params.id));
  const requireClient = (id: string) => {
    if (!store.client(id)) throw new HttpError(404, `Client ${id} not found`);
  };

  router.post('/incidents', (req, res) => {
    const body = parse(ZSeedIncident, req);
    requireClient(body.clientId);
    let target;
    try {
      target =
        body.incidentType === 'url' || body.incidentType === 'social'
          ? {
              incidentType: body.incidentType,
              subject: body.url ?? body.subject ?? '',
              url: body.url ?? body.subject,
            }
          : resolveReportTarget({
              url: body.url,
              incidentType: body.incidentType,
              subject: body.subject,
              attachments: [],
            });
    } catch (err) {
      if (err instanceof ReportValidationError) throw new HttpError(400, err.message);
      throw err;
    }
    if (!target.subject)
      throw new HttpError(400, "Invalid parameter 'url': url or subject is required");
    const sink = body.emitEvents === false ? { emit: () => undefined } : dispatcher;
    const created = createIncident(store, sink, {
      ...target,
      clientId: body.clientId,
      requestedAction: 'takedown',
      timestamp: body.timestamp,
      reportedBy: body.reportedBy,
      source: body.source ?? 'sandbox',
    });
    if (body.status) created.status = body.status;
    if (body.incidentClass) created.incidentClass = body.incidentClass;
    if (body.hostingProvider) created.hostingProvider = body.hostingProvider;
    if (body.registrar) created.registrar = body.registrar;
    if (body.threatTaxonomy) created.threatTaxonomy = body.threatTaxonomy;
    store.changed();
    res.status(201).json(created);
  });

  router.get('/incidents/:id', (req, res) => {
    res.json(incident(req));
  });

  router.patch('/incidents/:id', (req, res) => {
    const target = incident(req);
    const body = parse(ZPatchIncident, req);
    if (body.unreadable !== undefined) target.unreadable = body.unreadable;
    if (body.incidentState)
      target.incidentState = {
        ...target.incidentState,
        ...body.incidentState,
        timestamp: store.now(),
      };
    if (body.hostingProvider !== undefined) target.hostingProvider = body.hostingProvider;
    if (body.incidentClass !== undefined) target.incidentClass = body.incidentClass;
    store.changed();
    res.json(target);
  });

  router.post('/incidents/:id/advance', (req, res) => {
    const target = incident(req);
    advanceIncident(deps, target, parse(ZAdvance, req));
    res.json(target);
  });

  router.post('/incidents/:id/history', (req, res) => {
    const target = incident(req);
    addHistoryMessage(deps, target, parse(ZHistoryMessage, req));
    res.status(201).json(target.history);
  });

  router.post('/incidents/:id/blocklists', (req, res) => {
    const target = incident(req);
    addBlocklistListing(deps, target, parse(ZBlocklist, req));
    res.status(201).json(target.blocklists);
  });

  router.post('/incidents/:id/snapshots', (req, res) => {
    res.status(201).json(addSnapshot(deps, incident(req), parse(ZSnapshot, req)));
  });

  router.post('/incidents/:id/takedown-attempts', (req, res) => {
    const target = incident(req);
    addTakedownAttempt(deps, target, parse(ZAttempt, req));
    res.status(201).json(target.takedownAttempts);
  });

  return router;
}
