// The sidebar's location (manifest.json: `signedUrls: true`, url <public URL>/sidebar/app/assets/iframe.html).
// Zendesk POSTs the first request with a ZAF JWT it signed (form field `token`); the connector
// verifies it (the app's public key, iss = an installed account, aud = that account's installation
// of this app, sub = an agent of it, exp) and answers the built page with a session token in it.
// Every other request of the iframe (its scripts, the sidebar API) is then same-origin.
// Every refusal gets the same page: it tells nothing about which accounts are installed. Once the
// token is verified, a failure to read the account in Zendesk (its grant revoked, Zendesk down)
// is shown by the sidebar's own error view: the built page with the failure's code in it. Once the
// grant is known lost (nothing can be read in Zendesk any more), a token the app's key kept from
// earlier pages verifies gets the same view. The page itself: sidebar-page-html.ts; the token's
// checks: page-verification.ts.
import path from 'node:path';
import express, { type Request, type Response, type Router } from 'express';
import type { TDatabase } from '@incident-desk/db';
import {
  type AccountContext,
  type AccountContextProvider,
  AccountUnavailableError,
} from '../accounts';
import type { AgentChecker } from './agent-access';
import type { AppPublicKeys } from './app-public-key';
import { createPageVerification, type PageVerification } from './page-verification';
import { jsonBlock, refuse, sendPage, sessionBlock } from './sidebar-page-html';
import type { SidebarSessions } from './sidebar-sessions';
import { unverifiedIdentity, type ZafIdentity } from './zaf-token';

const SIDEBAR_PAGE_PATH = '/sidebar/app/assets/iframe.html';

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

/** Why a verified page cannot open: the sidebar shows it in its own error view. */
type PageFailure = 'reauthorization_required' | 'zendesk_unavailable';

const grantLost = (error: unknown): boolean =>
  error instanceof AccountUnavailableError && error.reason === 'reauthorization_required';

function pageFailureOf(error: unknown): PageFailure {
  return grantLost(error) ? 'reauthorization_required' : 'zendesk_unavailable';
}

/** The built page with the failure's code in it: the sidebar shows its own error view. */
function sendFailurePage(
  res: Response,
  page: { distDir: string; frameAncestor: string },
  code: PageFailure,
): Promise<void> {
  const failure = jsonBlock('incident-desk-page-error', { code });
  return sendPage(res, page, 503, (html) => html.replace('</head>', `${failure}</head>`));
}

/** Zendesk's signed first request: the page with a new session, once everything is verified. */
async function openPage(
  options: SidebarPageOptions,
  { isInstallation, verifiedIdentity, verifiedWithKeptKey }: PageVerification,
  req: Request,
  res: Response,
): Promise<void> {
  const page = (subdomain: string) => ({
    distDir: options.distDir,
    frameAncestor: options.zendeskOriginOf(subdomain),
  });
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
        return sendFailurePage(res, page(account.zendeskSubdomain), 'reauthorization_required');
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
    return sendFailurePage(res, page(account.zendeskSubdomain), pageFailureOf(error));
  }
  if (!agent.ok) return refuse(res);

  const session = await options.sessions.open({
    accountId: account.id,
    installationId: identity.installationId,
    userId: identity.userId,
  });
  return sendPage(res, page(account.zendeskSubdomain), 200, (html) =>
    html.replace('</head>', `${sessionBlock(session)}</head>`),
  );
}

export function sidebarPageRouter(options: SidebarPageOptions): Router {
  const router = express.Router();
  const verification = createPageVerification(options);

  router.post(
    SIDEBAR_PAGE_PATH,
    express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 }),
    (req, res, next) => {
      openPage(options, verification, req, res).catch(next);
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
