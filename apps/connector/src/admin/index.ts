// The admin page: sign-in with Zendesk, the JSON API scoped to the signed-in admin's account, and
// the built UI. Mount `adminRouter(...)` and give `completeAdminSignIn(...)`,
// `completeDisconnectAuthorization(...)` and `signInInstallingAdmin(...)` to accountsRouter.
import type { RequestHandler, Router } from 'express';
import express from 'express';
import type { CookiePolicy } from './admin-cookie';
import { adminApiRouter, type AdminApiOptions } from './admin-api-router';
import { adminAnalyticsRouter } from './analytics';
import { adminSignInRouter } from './admin-sign-in';
import { disconnectAuthorizationRouter } from './disconnect-authorization';
import { adminStaticRouter } from './admin-static';

export { completeAdminSignIn } from './admin-sign-in';
export { completeDisconnectAuthorization } from './disconnect-authorization';
export { signInInstallingAdmin } from './admin-session-start';
export { ADMIN_CSP } from './admin-static';

export interface AdminRouterOptions extends AdminApiOptions {
  /** The built admin page (config.adminDistDir). */
  distDir: string;
  fetch?: typeof fetch;
  /** Shared with /install: limits authorization starts per client. */
  startLimiter?: RequestHandler;
}

/** Secure cookies whenever the public URL is HTTPS (it must be outside local development). */
export function cookiePolicyFor(publicUrl: string): CookiePolicy {
  return { secure: new URL(publicUrl).protocol === 'https:' };
}

export function adminRouter(options: AdminRouterOptions): Router {
  const router = express.Router();
  router.use(adminStaticRouter({ distDir: options.distDir }));
  router.use(
    adminSignInRouter({
      db: options.db,
      oauth: options.oauth,
      cookies: options.cookies,
      now: options.now,
      publicOrigin: options.publicOrigin,
      ...(options.startLimiter ? { startLimiter: options.startLimiter } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    }),
  );
  router.use(
    disconnectAuthorizationRouter({
      db: options.db,
      secretBox: options.secretBox,
      oauth: options.oauth,
      cookies: options.cookies,
      now: options.now,
      ...(options.startLimiter ? { startLimiter: options.startLimiter } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    }),
  );
  // before the API router, whose last handler answers 404 for any other /admin/api path
  router.use(adminAnalyticsRouter(options));
  router.use(adminApiRouter(options));
  return router;
}
