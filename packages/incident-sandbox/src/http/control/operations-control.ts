import { Router } from 'express';
import { HttpError } from '../errors';
import { ZFaultRequest } from '../faults';
import type { ControlDeps } from './control-deps';
import { parse } from './parse-body';

/** Webhook delivery log and fault injection. */
export function operationsControlRoutes({ store, dispatcher, faults }: ControlDeps): Router {
  const router = Router();

  router.get('/deliveries', (req, res) => {
    const q = req.query as Record<string, string | undefined>;
    const deliveries = store.state.deliveries.filter(
      (d) =>
        (!q.subscriptionId || d.subscriptionId === q.subscriptionId) &&
        (!q.event || d.event === q.event) &&
        (!q.state || d.state === q.state) &&
        (!q.clientId || d.clientId === q.clientId) &&
        (!q.incidentId || d.incidentId === q.incidentId),
    );
    res.json({ data: deliveries.map((d) => ({ ...d, body: JSON.parse(d.body) as unknown })) });
  });

  router.post('/deliveries/wait', async (req, res) => {
    const timeoutMs = Math.min(Number(req.query.timeoutMs ?? 10_000) || 10_000, 60_000);
    let timer: NodeJS.Timeout | undefined;
    const idle = await Promise.race([
      dispatcher.idle().then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    res.status(idle ? 200 : 504).json({ idle });
  });

  router.get('/faults', (_req, res) => {
    res.json({ data: faults.list() });
  });

  router.post('/faults', (req, res) => {
    res.status(201).json(faults.add(parse(ZFaultRequest, req)));
  });

  router.delete('/faults', (_req, res) => {
    faults.clear();
    res.json({ message: 'faults cleared' });
  });

  router.delete('/faults/:id', (req, res) => {
    if (!faults.remove(String(req.params.id))) throw new HttpError(404, 'Fault not found');
    res.json({ message: 'fault removed' });
  });

  return router;
}
