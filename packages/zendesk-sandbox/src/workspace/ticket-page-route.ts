import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Request, RequestHandler, Response } from 'express';
import { escapeHtml } from '@incident-desk/threat-text';
import type { WorkspaceUser, WorkspaceDeps } from '../workspace-deps';
import {
  AppLoadError,
  loadApp,
  publicSettings,
  secureParameterNames,
  type LoadedApp,
} from './load-app';
import { loadTicketView } from './load-ticket-view';
import type { TWorkspaceOptions } from './options';
import { renderTicketPage, type PageInput } from './render-ticket-page';
import type { TSessionStore } from './session-store';
import { SupportApiError, type TSupportApi } from './support-api';
import { signZafToken } from './sign-zaf-token';
import { snapshotOf } from './ticket-events';

const SUBDOMAIN = /^[a-z0-9][a-z0-9-]{0,62}$/i;

export class PageError extends Error {
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
export function subdomainOf(req: Request, res: Response): string {
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

/** The query a workspace link keeps: who is looking (`as`) and at which account (`subdomain`). */
function keptQueryOf(pageUrl: string): string {
  const kept = new URLSearchParams();
  for (const [name, value] of new URLSearchParams(pageUrl.split('?', 2)[1] ?? ''))
    if (name === 'as' || name === 'subdomain') kept.set(name, value);
  const text = kept.toString();
  return text ? `?${text}` : '';
}

/** `/agent/tickets/7?as=2` -> `/agent/tickets?as=2`: the list, keeping who and which account. */
function listHrefOf(pageUrl: string): string {
  return (pageUrl.split('?', 2)[0] ?? '').replace(/\/\d+$/, '') + keptQueryOf(pageUrl);
}

/**
 * `/agent/tickets/7?as=2` -> `/agent/tickets/{id}?as=2`: where `routeTo('ticket', id)` goes,
 * as the same agent in the same account.
 */
function ticketHrefTemplateOf(pageUrl: string): string {
  return `${(pageUrl.split('?', 2)[0] ?? '').replace(/\/\d+$/, '')}/{id}${keptQueryOf(pageUrl)}`;
}

function contentSecurityPolicy(frameOrigin: string | null, signedPost: boolean): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${frameOrigin ?? "'none'"}`,
    "base-uri 'none'",
    // the signed first request of a signedUrls location is a form posted into the app's iframe
    // and the ticket form posts to the page itself
    `form-action 'self'${signedPost && frameOrigin ? ` ${frameOrigin}` : ''}`,
  ].join('; ');
}

/**
 * The app's small logo for its header in the apps panel: the configured folder's own, which this
 * router serves from the page's origin (the page's CSP allows no other image host); none for an
 * app from zcli.
 */
function appLogoSrc(source: TWorkspaceOptions['app'] | { zcliUrl: string }, baseUrl: string) {
  if (!source || !('dir' in source)) return null;
  return existsSync(path.join(source.dir, 'assets', 'logo-small.png'))
    ? `${baseUrl}/app/assets/logo-small.png`
    : null;
}

/** The agent of a page: `?as=<userId>` (an agent or admin), else the account's first agent. */
export async function pickAgent(
  deps: Pick<WorkspaceDeps, 'defaultAgent' | 'findUser'>,
  subdomain: string,
  as: unknown,
): Promise<WorkspaceUser> {
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
  if (user.role === 'end-user') throw new PageError(403, `User ${id} is an end user, not an agent`);
  return user;
}

export interface TicketPageContext {
  options: TWorkspaceOptions;
  deps: Pick<WorkspaceDeps, 'defaultAgent' | 'findUser' | 'installApp' | 'appSigningKey'>;
  sessions: TSessionStore;
  agentApi(subdomain: string, userId: number): TSupportApi;
  fetch: typeof fetch;
}

/** `GET /tickets/:id[?as=<userId>][&subdomain=][&zcli_apps=true]`: the ticket and its sidebar app. */
export function ticketPageHandler(ctx: TicketPageContext): RequestHandler {
  const { options, deps } = ctx;

  async function installedApp(
    req: Request,
  ): Promise<{ app: LoadedApp | null; problem: string; logoSrc: string | null }> {
    const source = req.query.zcli_apps === 'true' ? { zcliUrl: options.zcliUrl } : options.app;
    if (!source)
      return { app: null, problem: 'No app is configured for this workspace.', logoSrc: null };
    const logoSrc = appLogoSrc(source, req.baseUrl);
    try {
      const installation = { ...options.installation };
      if ('zcliUrl' in source && options.app && 'dir' in options.app) {
        // zcli's app.json does not say which settings are secure; the configured folder's manifest does.
        const fromManifest = await secureParameterNames(options.app.dir).catch(() => []);
        installation.secureSettingNames = [...installation.secureSettingNames, ...fromManifest];
      }
      return { app: await loadApp(source, installation, ctx.fetch), problem: '', logoSrc };
    } catch (err) {
      if (!(err instanceof AppLoadError)) throw err;
      return { app: null, problem: `The app could not be loaded: ${err.message}`, logoSrc: null };
    }
  }

  return async (req, res) => {
    const subdomain = subdomainOf(req, res);
    try {
      if (!SUBDOMAIN.test(subdomain)) throw new PageError(400, 'invalid subdomain');
      if (!/^\d+$/.test(String(req.params.id))) throw new PageError(404, 'Ticket not found');
      const ticketId = Number(req.params.id);
      const agent = await pickAgent(deps, subdomain, req.query.as);
      const api = ctx.agentApi(subdomain, agent.id);
      const view = await loadTicketView(api, ticketId).catch((err: unknown) => {
        if (err instanceof SupportApiError && err.status === 404)
          throw new PageError(404, 'Ticket not found');
        throw err;
      });
      const { app, problem, logoSrc } = await installedApp(req);

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
      let sidebar: PageInput['sidebar'] = { kind: 'message', text: problem };
      let frameOrigin: string | null = null;
      let signedPost = false;
      const appId = app ? Number(app.appId) : NaN;
      const zendeskAppId = Number.isSafeInteger(appId) && appId > 0;
      if (app?.signedUrls && !zendeskAppId) {
        sidebar = {
          kind: 'message',
          text: `signedUrls: the app id ${String(app.appId)} has no signing key.`,
        };
      } else if (app) {
        // A folder app is installed in this account: one installation id per account and app.
        // A folder app (and any signed one) is installed in this account: one id per account and app.
        const installationId =
          app.installationId === null || app.signedUrls
            ? zendeskAppId
              ? deps.installApp(subdomain, appId)
              : 0
            : app.installationId;
        const src =
          app.source.kind === 'folder'
            ? `${options.appOrigin ?? crossOriginTwin(hostOrigin)}${req.baseUrl}/app/${app.source.sidebarPath.replace(/^\.?\//, '')}`
            : app.source.sidebarUrl;
        const iframeSrc = withParams(src, { origin: hostOrigin, app_guid: appGuid });
        frameOrigin = new URL(iframeSrc).origin;
        // signedUrls: Zendesk POSTs the first request with a ZAF JWT it signs (form field token);
        // origin and app_guid stay in the URL, where the ZAF SDK reads them.
        signedPost = app.signedUrls;
        const signedToken = app.signedUrls
          ? await signZafToken({
              key: deps.appSigningKey(appId),
              subdomain,
              installationId: Number(installationId),
              userId: agent.id,
            })
          : null;
        sidebar = {
          kind: 'app',
          name: app.name,
          logoSrc,
          iframeSrc,
          signedToken,
          // Read by host.js. Only what the browser may see: no secure setting.
          hostConfig: {
            endpoint: `${req.baseUrl}/sessions/${session.id}`,
            ticketHref: ticketHrefTemplateOf(req.originalUrl),
            appOrigin: frameOrigin,
            appGuid,
            metadata: {
              appId: app.appId,
              installationId,
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
        .set('content-security-policy', contentSecurityPolicy(frameOrigin, signedPost))
        .type('html')
        .send(
          renderTicketPage({
            view,
            agent,
            subdomain,
            assetsBase: req.baseUrl,
            sidebar,
            form: { action: req.originalUrl, token: session.id },
            listHref: listHrefOf(req.originalUrl),
          }),
        );
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
