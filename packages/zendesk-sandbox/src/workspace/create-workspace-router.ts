import { readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import { createAgentApis } from './agent-api';
import { ZWorkspaceOptions, type TWorkspaceRouterInput } from './options';
import { proxyRequest } from './proxy-request';
import { createSessionStore, type WorkspaceSession } from './session-store';
import { streamTicketEvents } from './ticket-event-stream';
import { ticketFormHandler } from './ticket-form-route';
import { ticketListHandler } from './ticket-list-route';
import { ticketPageHandler } from './ticket-page-route';
import { resolveGet } from './zaf-get';
import { applySet } from './zaf-set';

const HOST_SCRIPT = readFileSync(new URL('./host/host.js', import.meta.url), 'utf8');

const ZRpcBody = z.union([
  z.object({ request: z.literal('get'), params: z.array(z.string()) }),
  z.object({ request: z.literal('set'), params: z.record(z.string(), z.unknown()) }),
]);

/**
 * The agent workspace of the sandbox: `GET <mount>/tickets/:id` shows a ticket and hosts the sidebar
 * app in an iframe, speaking the ZAF protocol to it (host.js in the page, the session endpoints here).
 * Mount it at `/agent` behind the sandbox's account resolver, or at `/_z/:subdomain/agent`.
 */
export function createWorkspaceRouter(input: TWorkspaceRouterInput): express.Router {
  const options = ZWorkspaceOptions.parse(input);
  const fetchImpl = input.fetch ?? fetch;
  const deps = input;
  const sessions = createSessionStore(options.maxSessions);
  const router = express.Router({ mergeParams: true });

  function sessionOf(req: Request, res: Response): WorkspaceSession | undefined {
    const session = sessions.get(String(req.params.sid));
    if (!session)
      res.status(404).json({ error: { name: 'SessionNotFound', message: 'reload the page' } });
    return session;
  }

  router.get('/host.js', (_req, res) => {
    res.type('application/javascript').set('cache-control', 'no-cache').send(HOST_SCRIPT);
  });

  const appSource = options.app;
  if (appSource && 'dir' in appSource) {
    router.get('/app/manifest.json', (_req, res) => {
      res.sendFile(path.resolve(appSource.dir, 'manifest.json'));
    });
    router.use(
      '/app/assets',
      express.static(path.resolve(appSource.dir, 'assets'), { dotfiles: 'deny' }),
    );
  }

  const agentApi = createAgentApis(deps, fetchImpl);
  router.get('/tickets{/}', ticketListHandler({ deps, agentApi }));
  router.get(
    '/tickets/:id',
    ticketPageHandler({ options, deps, sessions, agentApi, fetch: fetchImpl }),
  );

  router.post(
    '/tickets/:id',
    ticketFormHandler({
      sessions,
      maxUploadBytes: options.maxUploadBytes,
      maxUploadFiles: options.maxUploadFiles,
    }),
  );

  router.post('/sessions/:sid/rpc', express.json({ limit: '1mb' }), async (req, res) => {
    const session = sessionOf(req, res);
    if (!session) return;
    const body = ZRpcBody.safeParse(req.body);
    if (!body.success) {
      res.status(400).json({ error: { name: 'InvalidRequest', message: body.error.message } });
      return;
    }
    const result =
      body.data.request === 'get'
        ? await resolveGet(body.data.params, session, deps)
        : await applySet(body.data.params, session);
    res.json({ result });
  });

  router.post('/sessions/:sid/request', express.json({ limit: '5mb' }), async (req, res) => {
    const session = sessionOf(req, res);
    if (!session) return;
    const outcome = await proxyRequest((req.body as { options?: unknown } | undefined)?.options, {
      session,
      fetch: fetchImpl,
      defaultTimeoutMs: options.proxyTimeoutMs,
    });
    res.json(outcome);
  });

  router.get('/sessions/:sid/events', (req, res) => {
    const session = sessionOf(req, res);
    if (session) streamTicketEvents(req, res, session, deps, options.heartbeatMs);
  });

  return router;
}
