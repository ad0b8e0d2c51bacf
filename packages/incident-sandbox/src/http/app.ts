import { MAX_REPORT_BYTES } from '@incident-desk/incident-api';
import express, { type Express } from 'express';
import { ApiRequestCounter } from './api-request-counter';
import { requireApiKey, requireAuthorisedClientId } from './auth';
import type { SandboxContext } from './context';
import { controlRoutes, type ControlDeps } from './control/control-routes';
import { errorHandler, HttpError } from './errors';
import { accountRoutes } from './routes/account';
import { documentRoutes } from './routes/documents';
import { incidentActionRoutes } from './routes/incident-actions';
import { incidentReadRoutes } from './routes/incidents';
import { reportRoutes } from './routes/report';
import { resolutionsRoutes } from './routes/resolutions';
import { webhookRoutes } from './routes/webhooks';

export function buildApp(deps: ControlDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  // Reports are the largest JSON bodies the API takes: under 10 MB.
  app.use(express.json({ limit: MAX_REPORT_BYTES - 1 }));

  const apiRequests = new ApiRequestCounter();
  app.use('/_sandbox', apiRequests.router());
  app.use('/_sandbox', controlRoutes(deps));

  // Every service API request is counted as it arrives, a faulted one too.
  app.use('/v1', apiRequests.middleware());
  // Faults apply to the service API only, before authentication, like an upstream proxy failing.
  app.use('/v1', deps.faults.middleware());
  const ctx: SandboxContext = deps;
  const v1 = express.Router();
  v1.use(requireApiKey(deps.store));
  v1.use(requireAuthorisedClientId());
  // Resolutions first: /v1/incident/resolutions must not be read as /v1/incident/{id}.
  const serviceRoutes = [
    resolutionsRoutes,
    reportRoutes,
    incidentReadRoutes,
    incidentActionRoutes,
    accountRoutes,
    documentRoutes,
    webhookRoutes,
  ];
  for (const routes of serviceRoutes) v1.use(routes(ctx));
  app.use('/v1', v1);

  app.use((req, _res, next) => next(new HttpError(404, `No route for ${req.method} ${req.path}`)));
  app.use(errorHandler);
  return app;
}
