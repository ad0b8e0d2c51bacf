// The sidebar's location (manifest.json: `signedUrls: true`, url <public URL>/sidebar/app/assets/iframe.html).
// Zendesk POSTs the first request with a ZAF JWT it signed (form field `token`); the connector
// verifies it (the app's public key, iss = an installed account, aud = that account's installation
// of this app, sub = an agent of it, exp) and answers the built page with a session token in it.
// Every other request of the iframe (its scripts, the sidebar API) is then same-origin.
// Every refusal gets the same page: it tells nothing about which accounts are installed. Once the
// token is verified, a failure to read the account in Zendesk (its grant revoked, Zendesk down)
// is shown by the sidebar's own error view: the built page with the failure's code in it. Once the
// grant is known lost (nothing can be read in Zendesk any more), a token the app's key kept from
// earlier pages verifies gets the same view.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import express, { type Request, type Response, type Router } from 'express';
import type { TDatabase } from '@incident-desk/db';
import {
  AccountUnavailableError,
  type AccountContext,
  type AccountContextProvider,
} from '../accounts/account-context';
import type { AgentChecker } from './agent-access';
import type { AppPublicKeys } from './app-public-key';
import type { SidebarSessions } from './sidebar-sessions';
import { unverifiedIdentity, verifyZafToken, type ZafIdentity } from './zaf-token';

export const SIDEBAR_PAGE_PATH = '/sidebar/app/assets/iframe.html';

export interface SidebarPageOptions {
  db: TDatabase;
  accounts: AccountContextProvider;
  agents: AgentChecker;
  sessions: SidebarSessions;
  publicKeys: AppPublicKeys;
  /** The app's id in Zendesk (its public key, its installations). */
  appId: number;
  /** The built sidebar (apps/sidebar/dist): assets/iframe.html and its scripts. */
  distDir: string;
  /** The origin of an account's agent workspace, the only one that may frame the page. */
  zendeskOriginOf(subdomain: string): string;
  now: () => Date;
  log: (message: string) => void;
}

const pageCsp = (frameAncestor: string) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    // Garden's styled-components inserts <style> elements at run time
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestor}`,
  ].join('; ');

const REFUSED_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>incident-desk</title>' +
  '<p id="sidebar-refused">This app could not be verified as opened by Zendesk. Reload the ticket in Zendesk.</p></html>';

function refuse(res: Response): void {
  res
    .status(401)
    .set('Cache-Control', 'no-store')
    .set('Content-Security-Policy', "default-src 'none'; frame-ancestors *")
    .set('X-Content-Type-Options', 'nosniff')
    .type('html')
    .send(REFUSED_PAGE);
}

/** A JSON block the page reads, never executed, escaped for a script tag. */
function jsonBlock(id: string, value: unknown): string {
  const json = JSON.stringify(value).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${id}">${json}</script>`;
}

/** The session as the page reads it. */
function sessionBlock(session: { token: string; expiresAt: Date; capAt: Date }): string {
  return jsonBlock('incident-desk-session', {
    token: session.token,
    expiresAt: session.expiresAt.toISOString(),
    capAt: session.capAt.toISOString(),
  });
}

/** Why a verified page cannot open: the sidebar shows it in its own error view. */
export type PageFailure = 'reauthorization_required' | 'zendesk_unavailable';

const grantLost = (error: unknown): boolean =>
  error instanceof AccountUnavailableError && error.reason === 'reauthorization_required';

function pageFailureOf(error: unknown): PageFailure {
  return grantLost(error) ? 'reauthorization_required' : 'zendesk_unavailable';
}

export function sidebarPageRouter(options: SidebarPageOptions): Router {
  const router = express.Router();
  const installationCache = new Map<string, { ids: Set<number>; at: number }>();

  /** The account's installations of this app, from Zendesk; read again (at most every 30 s) on a miss. */
  async function isInstallation(ctx: AccountContext, installationId: number): Promise<boolean> {
    const now = options.now().getTime();
    const cached = installationCache.get(ctx.accountId);
    if (cached && (cached.ids.has(installationId) || now - cached.at < 30_000))
      return cached.ids.has(installationId);
    const installations = await ctx.zendesk.apps.installations();
    const ids = new Set(
      installations
        .filter((i) => i.app_id === options.appId && i.enabled !== false)
        .map((i) => i.id),
    );
    if (installationCache.size > 10_000) installationCache.clear();
    installationCache.set(ctx.accountId, { ids, at: now });
    return ids.has(installationId);
  }

  async function verifiedIdentity(ctx: AccountContext, token: string): Promise<ZafIdentity | null> {
    const fetchPem = () => ctx.zendesk.apps.publicKey(options.appId);
    let result = await verifyZafToken(
      token,
      await options.publicKeys.current(fetchPem),
      options.now(),
    );
    if (!result.ok && result.reason === 'signature') {
      // the app's key may have been rotated: one fresh read, rate-limited
      const fresh = await options.publicKeys.refetched(fetchPem);
      if (fresh) result = await verifyZafToken(token, fresh, options.now());
    }
    if (!result.ok) {
      options.log(`sidebar page: token refused (${result.reason})`);
      return null;
    }
    return result.identity;
  }

  /** The token's identity when the key fetched for earlier pages verifies it; Zendesk is not asked. */
  async function verifiedWithKeptKey(token: string): Promise<ZafIdentity | null> {
    const key = await options.publicKeys.kept()?.catch(() => null);
    if (!key) return null;
    const result = await verifyZafToken(token, key, options.now());
    return result.ok ? result.identity : null;
  }

  async function openPage(req: Request, res: Response): Promise<void> {
    const token = (req.body as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string' || token.length > 8_192) return refuse(res);
    const claimed = unverifiedIdentity(token);
    if (!claimed) return refuse(res);
    const account = await options.db.prisma.account.findUnique({
      where: { zendeskSubdomain: claimed.subdomain },
    });
    if (!account) return refuse(res);
    let ctx: AccountContext;
    try {
      ctx = await options.accounts.forAccount(account.id);
    } catch (error) {
      options.log(`sidebar page: account unavailable (${(error as Error).name})`);
      // Once its grant is known lost, the account cannot ask Zendesk anything: a token the app's
      // key (kept from earlier pages) verifies gets the sidebar's error view, as the first did.
      if (grantLost(error)) {
        const identity = await verifiedWithKeptKey(token);
        if (identity?.subdomain === claimed.subdomain)
          return sendFailurePage(res, account.zendeskSubdomain, 'reauthorization_required');
      }
      return refuse(res);
    }
    let identity: ZafIdentity | null;
    try {
      identity = await verifiedIdentity(ctx, token);
    } catch (error) {
      // without the app's key nothing is verified: the same refusal as any other
      options.log(`sidebar page: the app's key could not be read (${(error as Error).name})`);
      return refuse(res);
    }
    if (!identity || identity.subdomain !== claimed.subdomain) return refuse(res);
    let agent: { ok: boolean };
    try {
      if (!(await isInstallation(ctx, identity.installationId))) {
        options.log('sidebar page: token of another installation refused');
        return refuse(res);
      }
      agent = await options.agents.check(ctx, identity.userId, { fresh: true });
    } catch (error) {
      options.log(
        `sidebar page: the account could not be read in Zendesk (${(error as Error).name})`,
      );
      return sendFailurePage(res, account.zendeskSubdomain, pageFailureOf(error));
    }
    if (!agent.ok) return refuse(res);

    const session = await options.sessions.open({
      accountId: account.id,
      installationId: identity.installationId,
      userId: identity.userId,
    });
    return sendPage(res, account.zendeskSubdomain, 200, (html) =>
      html.replace('</head>', `${sessionBlock(session)}</head>`),
    );
  }

  /** The built page with the failure's code in it: the sidebar shows its own error view. */
  function sendFailurePage(res: Response, subdomain: string, code: PageFailure): Promise<void> {
    const failure = jsonBlock('incident-desk-page-error', { code });
    return sendPage(res, subdomain, 503, (html) => html.replace('</head>', `${failure}</head>`));
  }

  /** The built page, framed by the account's Zendesk only, with what `fill` adds to it. */
  async function sendPage(
    res: Response,
    subdomain: string,
    status: number,
    fill: (html: string) => string,
  ): Promise<void> {
    let html: string;
    try {
      html = await readFile(path.join(options.distDir, 'assets', 'iframe.html'), 'utf8');
    } catch {
      res
        .status(503)
        .type('text')
        .send('The sidebar is not built: npm run build -w @incident-desk/sidebar.');
      return;
    }
    res
      .status(status)
      .set('Cache-Control', 'no-store')
      .set('Content-Security-Policy', pageCsp(options.zendeskOriginOf(subdomain)))
      .set('X-Content-Type-Options', 'nosniff')
      .set('Referrer-Policy', 'no-referrer')
      .type('html')
      .send(fill(html));
  }

  router.post(
    SIDEBAR_PAGE_PATH,
    express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 }),
    (req, res, next) => {
      openPage(req, res).catch(next);
    },
  );
  // Without Zendesk's signed POST there is no session to give.
  router.get(SIDEBAR_PAGE_PATH, (_req, res) => refuse(res));
  router.use(
    '/sidebar/app/assets',
    (_req, res, next) => {
      res.setHeader('X-Content-Type-Options', 'nosniff');
      next();
    },
    express.static(path.join(options.distDir, 'assets'), {
      index: false,
      fallthrough: false,
      setHeaders: (res) => res.setHeader('Cache-Control', 'public, max-age=31536000, immutable'),
    }),
  );
  return router;
}
