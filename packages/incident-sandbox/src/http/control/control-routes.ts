import { Router } from 'express';
import { DEMO_API_KEY } from '../../state/seed-accounts';
import { consoleRoutes } from '../console/console-router';
import { accountControlRoutes } from './account-control';
import type { ControlDeps } from './control-deps';
import { incidentControlRoutes } from './incident-control';
import { operationsControlRoutes } from './operations-control';
import { parse } from './parse-body';
import { ZReset, ZSettings } from './schemas';

export type { ControlDeps } from './control-deps';

/** The /_sandbox control API: state set-up for demos and tests. No API key; never exposed by the real service. */
export function controlRoutes(deps: ControlDeps): Router {
  const { store } = deps;
  const router = Router();

  router.use('/console', consoleRoutes(deps));

  router.get('/', (req, res) => {
    // A browser opening /_sandbox/ gets the analyst console; API clients keep this JSON index.
    if (req.accepts(['json', 'html']) === 'html')
      return void res.redirect(303, '/_sandbox/console/');
    res.json({
      message:
        'incident-sandbox: a stateful stand-in for the incident service Client API (see the package README)',
      demoApiKey: DEMO_API_KEY,
      api: '/v1',
      console: '/_sandbox/console/',
      control: [
        'GET /_sandbox/ready',
        'POST /_sandbox/reset',
        'GET|PATCH /_sandbox/settings',
        'GET /_sandbox/state',
        'POST /_sandbox/clients',
        'PATCH /_sandbox/clients/:id',
        'POST /_sandbox/keys',
        'POST /_sandbox/users',
        'POST /_sandbox/documents',
        'POST /_sandbox/incidents',
        'GET|PATCH /_sandbox/incidents/:id',
        'POST /_sandbox/incidents/:id/advance',
        'POST /_sandbox/incidents/:id/history',
        'POST /_sandbox/incidents/:id/blocklists',
        'POST /_sandbox/incidents/:id/snapshots',
        'POST /_sandbox/incidents/:id/takedown-attempts',
        'GET /_sandbox/deliveries',
        'POST /_sandbox/deliveries/wait',
        'GET|POST|DELETE /_sandbox/faults',
        'DELETE /_sandbox/faults/:id',
        'GET|DELETE /_sandbox/api-requests',
      ],
    });
  });

  router.get('/ready', (_req, res) => {
    res.json({ ready: true });
  });

  router.post('/reset', (req, res) => {
    const { seed } = parse(ZReset, req);
    deps.reset(seed ?? true);
    res.json({ message: 'reset', seeded: seed ?? true });
  });

  router.get('/state', (_req, res) => {
    res.json(store.state);
  });

  router.get('/settings', (_req, res) => {
    res.json(store.state.settings);
  });

  router.patch('/settings', (req, res) => {
    Object.assign(store.state.settings, parse(ZSettings, req));
    store.changed();
    res.json(store.state.settings);
  });

  router.use(accountControlRoutes(deps));
  router.use(incidentControlRoutes(deps));
  router.use(operationsControlRoutes(deps));
  return router;
}
