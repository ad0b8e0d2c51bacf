import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { z } from 'zod';
import { ANALYST_TRANSITIONS } from '../../domain/transitions';
import { findClientForControl, updateClient } from '../control/client-operations';
import type { ControlDeps } from '../control/control-deps';
// the console acts through the same operations as the control API, so both change state alike
import * as operations from '../control/incident-operations';
import { parseValues } from '../control/parse-body';
import {
  ZAdvance,
  ZAttempt,
  ZBlocklist,
  ZHistoryMessage,
  ZSnapshot,
  ZUpdateClient,
} from '../control/schemas';
import { HttpError } from '../errors';
import { renderConsoleError, renderIncident } from './render-incident';
import { renderOverview } from './render-overview';

type TForm = Record<string, string | undefined>;

/** Form fields left empty are absent, as an optional JSON field would be. */
function filled(form: TForm, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = form[name]?.trim();
    if (value) out[name] = value;
  }
  return out;
}

/** The console's CSRF check: it has no sessions, so a post must come from its own origin. */
function requireSameOrigin(req: Request): void {
  const origin = req.get('origin');
  const crossSite = req.get('sec-fetch-site') === 'cross-site';
  if (
    crossSite ||
    (origin !== undefined && origin !== `${req.protocol}://${req.get('host') ?? ''}`)
  )
    throw new HttpError(403, 'The console only accepts forms posted from its own pages');
}

/**
 * `/_sandbox/console/`: the analyst console, plain HTML forms over the same operations as the JSON
 * control API (so every change emits the same webhooks). Each post answers 303 back to its page.
 */
export function consoleRoutes(deps: ControlDeps): Router {
  const router = Router();
  const send = (res: Response, status: number, page: string) =>
    res.status(status).set('cache-control', 'no-store').type('html').send(page);
  const incidentUrl = (id: string) => `/_sandbox/console/incidents/${encodeURIComponent(id)}`;
  const form = (req: Request): TForm => (req.body ?? {}) as TForm;

  router.use(express.urlencoded({ extended: false, limit: '200kb' }));
  router.use((req, _res, next) => {
    if (req.method === 'POST') requireSameOrigin(req);
    next();
  });

  router.get('/', (_req, res) => send(res, 200, renderOverview(deps.store.state)));

  router.get('/incidents/:id', (req, res) => {
    const incident = operations.findIncidentForControl(deps, String(req.params.id));
    const deliveries = deps.store.state.deliveries.filter((d) => d.incidentId === incident.id);
    send(res, 200, renderIncident(incident, deps.store.client(incident.clientId), deliveries));
  });

  const incidentAction = <S extends z.ZodType>(
    path: string,
    schema: S,
    values: (form: TForm) => unknown,
    apply: (target: ReturnType<typeof operations.findIncidentForControl>, body: z.infer<S>) => void,
  ) => {
    router.post(`/incidents/:id/${path}`, (req, res) => {
      const target = operations.findIncidentForControl(deps, String(req.params.id));
      try {
        apply(target, parseValues(schema, values(form(req))));
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        const allowed = err.status === 409 ? ANALYST_TRANSITIONS[target.status] : undefined;
        const page = renderConsoleError(err.status, err.message, incidentUrl(target.id), allowed);
        return void send(res, err.status, page);
      }
      const fromOverview = form(req).back === 'overview';
      res.redirect(
        303,
        fromOverview
          ? `/_sandbox/console/#client-${encodeURIComponent(target.clientId)}`
          : incidentUrl(target.id),
      );
    });
  };

  incidentAction(
    'advance',
    ZAdvance,
    (f) => ({ ...filled(f, ['status', 'message', 'waitForClient']), analyst: 'Console Analyst' }),
    (target, body) => operations.advanceIncident(deps, target, body),
  );
  incidentAction(
    'history',
    ZHistoryMessage,
    (f) => ({ ...filled(f, ['message']), analyst: 'Console Analyst' }),
    (target, body) => operations.addHistoryMessage(deps, target, body),
  );
  incidentAction(
    'blocklists',
    ZBlocklist,
    (f) => filled(f, ['authority', 'type', 'status', 'link']),
    (target, body) => operations.addBlocklistListing(deps, target, body),
  );
  incidentAction(
    'snapshots',
    ZSnapshot,
    (f) => {
      const values: Record<string, unknown> = filled(f, ['description']);
      const insights = f.insights?.trim();
      if (insights) {
        try {
          values.insights = JSON.parse(insights) as unknown;
        } catch {
          throw new HttpError(400, "Invalid parameter 'insights': not JSON");
        }
      }
      return values;
    },
    (target, body) => void operations.addSnapshot(deps, target, body),
  );
  incidentAction(
    'takedown-attempts',
    ZAttempt,
    (f) => {
      const now = deps.store.now();
      const outcome = f.outcome?.trim();
      return outcome ? { startedAt: now, resolvedAt: now, outcome } : { startedAt: now };
    },
    (target, body) => operations.addTakedownAttempt(deps, target, body),
  );

  router.post('/clients/:id/credits', (req, res) => {
    const client = findClientForControl(deps, String(req.params.id));
    const raw = form(req).credits?.trim() ?? '';
    const credits =
      raw === '' ? null : raw === 'unlimited' ? raw : /^\d+$/.test(raw) ? Number(raw) : raw;
    updateClient(deps, client, parseValues(ZUpdateClient, { credits }));
    res.redirect(303, `/_sandbox/console/#client-${encodeURIComponent(client.id)}`);
  });

  router.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (!(err instanceof HttpError)) return next(err);
    send(res, err.status, renderConsoleError(err.status, err.message, '/_sandbox/console/'));
  });

  return router;
}
