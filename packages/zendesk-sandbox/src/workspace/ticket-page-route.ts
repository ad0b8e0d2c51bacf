import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { TWorkspaceUser, WorkspaceDeps } from '../workspace-deps';
import { escapeHtml } from './escape-html';
import {
  AppLoadError,
  loadApp,
  publicSettings,
  secureParameterNames,
  type TLoadedApp,
} from './load-app';
import { loadTicketView } from './load-ticket-view';
import type { TWorkspaceOptions } from './options';
import { renderTicketPage, type TPageInput } from './render-ticket-page';
import type { TSessionStore } from './session-store';
import { SupportApiError, type TSupportApi } from './support-api';
import { snapshotOf } from './ticket-events';

const SUBDOMAIN = /^[a-z0-9][a-z0-9-]{0,62}$/i;

class PageError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The account, from the same scheme as the API: a `:subdomain` route parameter, the `/_z/<subdomain>`
 * prefix the sandbox strips into `res.locals.subdomain` (or a `<subdomain>.localhost` Host), then
 * `?subdomain=`, then `demo`.
 */
function subdomainOf(req: Request, res: Response): string {
  const fromParams = (req.params as { subdomain?: unknown }).subdomain;
  const fromLocals = (res.locals as { subdomain?: unknown }).subdomain;
  for (const candidate of [fromParams, fromLocals, req.query.subdomain]) {
    if (typeof candidate === 'string' && candidate !== '') return candidate;
  }
  return 'demo';
}

/** The other loopback name, so a folder app runs on another origin than the host page, as in Zendesk. */
function crossOriginTwin(origin: string): string {
  const url = new URL(origin);
  if (url.hostname === 'localhost') url.hostname = '127.0.0.1';
  else if (url.hostname === '127.0.0.1') url.hostname = 'localhost';
  return url.origin;
}

function withParams(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.href;
}

function contentSecurityPolicy(frameOrigin: string | null): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${frameOrigin ?? "'none'"}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export interface TTicketPageContext {
  options: TWorkspaceOptions;
  deps: Pick<WorkspaceDeps, 'defaultAgent' | 'findUser'>;
  sessions: TSessionStore;
  agentApi(subdomain: string, userId: number): TSupportApi;
  fetch: typeof fetch;
}

/** `GET /tickets/:id[?as=<userId>][&subdomain=][&zcli_apps=true]`: the ticket and its sidebar app. */
export function ticketPageHandler(ctx: TTicketPageContext): RequestHandler {
  const { options, deps } = ctx;

  async function pickAgent(subdomain: string, as: unknown): Promise<TWorkspaceUser> {
    if (as === undefined) {
      try {
        return await deps.defaultAgent(subdomain);
      } catch (err) {
        throw new PageError(404, `No agent in account ${subdomain}: ${(err as Error).message}`);
      }
    }
    const id = typeof as === 'string' && /^\d+$/.test(as) ? Number(as) : NaN;
    if (!Number.isSafeInteger(id)) throw new PageError(400, '`as` must be a user id');
    const user = await deps.findUser(subdomain, id);
    if (!user) throw new PageError(404, `No user ${id} in account ${subdomain}`);
    if (user.role === 'end-user')
      throw new PageError(403, `User ${id} is an end user, not an agent`);
    return user;
  }

  async function installedApp(req: Request): Promise<{ app: TLoadedApp | null; problem: string }> {
    const source = req.query.zcli_apps === 'true' ? { zcliUrl: options.zcliUrl } : options.app;
    if (!source) return { app: null, problem: 'No app is configured for this workspace.' };
    try {
      const installation = { ...options.installation };
      if ('zcliUrl' in source && options.app && 'dir' in options.app) {
        // zcli's app.json does not say which settings are secure; the configured folder's manifest does.
        const fromManifest = await secureParameterNames(options.app.dir).catch(() => []);
        installation.secureSettingNames = [...installation.secureSettingNames, ...fromManifest];
      }
      return { app: await loadApp(source, installation, ctx.fetch), problem: '' };
    } catch (err) {
      if (!(err instanceof AppLoadError)) throw err;
      return { app: null, problem: `The app could not be loaded: ${err.message}` };
    }
  }

  return async (req, res) => {
    const subdomain = subdomainOf(req, res);
    try {
      if (!SUBDOMAIN.test(subdomain)) throw new PageError(400, 'invalid subdomain');
      if (!/^\d+$/.test(String(req.params.id))) throw new PageError(404, 'Ticket not found');
      const ticketId = Number(req.params.id);
      const agent = await pickAgent(subdomain, req.query.as);
      const api = ctx.agentApi(subdomain, agent.id);
      const view = await loadTicketView(api, ticketId).catch((err: unknown) => {
        if (err instanceof SupportApiError && err.status === 404)
          throw new PageError(404, 'Ticket not found');
        throw err;
      });
      const { app, problem } = await installedApp(req);

      const hostOrigin = `${req.protocol}://${req.get('host')}`;
      const appGuid = randomUUID();
      const session = ctx.sessions.add({
        subdomain,
        ticketId,
        agent,
        app,
        appGuid,
        api,
        snapshot: snapshotOf(view.ticket),
      });
      let sidebar: TPageInput['sidebar'] = { kind: 'message', text: problem };
      let frameOrigin: string | null = null;
      if (app) {
        const src =
          app.source.kind === 'folder'
            ? `${options.appOrigin ?? crossOriginTwin(hostOrigin)}${req.baseUrl}/app/${app.source.sidebarPath.replace(/^\.?\//, '')}`
            : app.source.sidebarUrl;
        const iframeSrc = withParams(src, { origin: hostOrigin, app_guid: appGuid });
        frameOrigin = new URL(iframeSrc).origin;
        sidebar = {
          kind: 'app',
          iframeSrc,
          // Read by host.js. Only what the browser may see: no secure setting.
          hostConfig: {
            endpoint: `${req.baseUrl}/sessions/${session.id}`,
            appOrigin: frameOrigin,
            appGuid,
            metadata: {
              appId: app.appId,
              installationId: app.installationId,
              name: app.name,
              settings: publicSettings(app),
            },
            context: {
              product: 'support',
              location: 'ticket_sidebar',
              ticketId,
              account: { subdomain },
              instanceGuid: appGuid,
            },
          },
        };
      }
      res
        .status(200)
        .set('cache-control', 'no-store')
        .set('content-security-policy', contentSecurityPolicy(frameOrigin))
        .type('html')
        .send(renderTicketPage({ view, agent, subdomain, assetsBase: req.baseUrl, sidebar }));
    } catch (err) {
      res
        .status(err instanceof PageError ? err.status : 502)
        .type('html')
        .send(
          `<!doctype html><meta charset="utf-8"><title>Agent workspace</title>` +
            `<p id="workspace-error">${escapeHtml((err as Error).message)}</p>`,
        );
    }
  };
}
