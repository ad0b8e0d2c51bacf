import { Router, type Request } from 'express';
import { addHistory } from '../../domain/history';
import { createIncident, ReportValidationError, resolveReportTarget } from '../../domain/report';
import { changeStatus, TransitionError } from '../../domain/transitions';
import type { IncidentRecord } from '../../state/model';
import { HttpError, notFound } from '../errors';
import type { ControlDeps } from './control-deps';
import { parse } from './parse-body';
import { ZAdvance, ZAttempt, ZBlocklist, ZPatchIncident, ZSeedIncident, ZSnapshot } from './schemas';

/** Seeding incidents and moving them like analysts do. */
export function incidentControlRoutes({ store, dispatcher }: ControlDeps): Router {
  const router = Router();
  const incident = (req: Request): IncidentRecord => {
    const id = String(req.params.id);
    const found = store.state.incidents.find((i) => i.id === id || i.ref === id);
    if (!found) throw notFound();
    return found;
  };
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
          ? { incidentType: body.incidentType, subject: body.url ?? body.subject ?? '', url: body.url ?? body.subject }
          : resolveReportTarget({ url: body.url, incidentType: body.incidentType, subject: body.subject, attachments: [] });
    } catch (err) {
      if (err instanceof ReportValidationError) throw new HttpError(400, err.message);
      throw err;
    }
    if (!target.subject) throw new HttpError(400, "Invalid parameter 'url': url or subject is required");
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
    store.save();
    res.status(201).json(created);
  });

  router.get('/incidents/:id', (req, res) => {
    res.json(incident(req));
  });

  router.patch('/incidents/:id', (req, res) => {
    const target = incident(req);
    const body = parse(ZPatchIncident, req);
    if (body.unreadable !== undefined) target.unreadable = body.unreadable;
    if (body.incidentState) target.incidentState = { ...target.incidentState, ...body.incidentState, timestamp: store.now() };
    if (body.hostingProvider !== undefined) target.hostingProvider = body.hostingProvider;
    if (body.incidentClass !== undefined) target.incidentClass = body.incidentClass;
    store.save();
    res.json(target);
  });

  router.post('/incidents/:id/advance', (req, res) => {
    const target = incident(req);
    const body = parse(ZAdvance, req);
    try {
      changeStatus(
        target,
        {
          to: body.status,
          now: store.now(),
          message: body.message,
          waitForClient: body.waitForClient,
          author: { type: 'analyst', name: body.analyst ?? 'Sandbox Analyst' },
          force: body.force,
        },
        dispatcher,
      );
    } catch (err) {
      if (err instanceof TransitionError) throw new HttpError(409, err.message);
      throw err;
    }
    if (body.snapshot && !['email', 'phone', 'ipv4'].includes(target.incidentType)) {
      target.snapshots.unshift({ id: store.newId('snapshot', 'snap_', 16), incidentId: target.id, type: 'incident_status_updated', timestamp: store.now(), description: `Capture after moving to ${body.status}` });
    }
    store.save();
    res.json(target);
  });

  router.post('/incidents/:id/blocklists', (req, res) => {
    const target = incident(req);
    const body = parse(ZBlocklist, req);
    target.blocklists.push({ authority: body.authority, type: body.type, status: body.status, listedAt: body.listedAt ?? (body.status === 'listed' ? store.now() : null), link: body.link ?? null });
    if (body.type === 'warning-banner' && body.status === 'listed') target.incidentState = { ...target.incidentState, warningBanner: true };
    addHistory(target, { timestamp: store.now(), message: `Submitted to ${body.authority}` }, dispatcher);
    store.save();
    res.status(201).json(target.blocklists);
  });

  router.post('/incidents/:id/snapshots', (req, res) => {
    const target = incident(req);
    const body = parse(ZSnapshot, req);
    const snapshot = { id: store.newId('snapshot', 'snap_', 16), incidentId: target.id, type: body.type ?? 'incident_status_updated', timestamp: body.timestamp ?? store.now(), description: body.description ?? 'Sandbox capture', dns: body.dns, whois: body.whois, certificate: body.certificate, insights: body.insights };
    target.snapshots.push(snapshot);
    target.snapshots.sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0));
    store.save();
    res.status(201).json(snapshot);
  });

  router.post('/incidents/:id/takedown-attempts', (req, res) => {
    const target = incident(req);
    const body = parse(ZAttempt, req);
    target.takedownAttempts.push({ startedAt: body.startedAt, resolvedAt: body.resolvedAt ?? null, outcome: body.outcome ?? null });
    dispatcher.emit({ event: 'incident.takedown_updated', clientId: target.clientId, incidentId: target.id, data: { incidentId: target.id } });
    store.save();
    res.status(201).json(target.takedownAttempts);
  });

  return router;
}
