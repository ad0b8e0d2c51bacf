// What the install routes (/install, /oauth/callback) are given.
import type express from 'express';
import type { RequestHandler } from 'express';
import type { TDatabase } from '@incident-desk/db';
import type { SecretBox } from '../secrets';
import type { StateCookiePolicy } from './oauth-state-cookie';
import type { TZendeskOAuthConfig } from './zendesk-oauth-config';

export interface AccountsRouterOptions {
  db: TDatabase;
  secretBox: SecretBox;
  oauth: TZendeskOAuthConfig;
  now?: () => number;
  fetch?: typeof fetch;
  /** Secure cookies (and the __Host- prefix); default: when the redirect URI is HTTPS. */
  cookies?: StateCookiePolicy;
  /** Limits starts per client; share one with the admin sign-in. Default: a limiter of its own. */
  startLimiter?: RequestHandler;
  /** Cap of the stored states (default MAX_STORED_STATES). */
  maxStoredStates?: number;
  /** Called after a successful install (e.g. to queue setup). */
  onInstalled?: (account: { accountId: string; subdomain: string }) => Promise<void> | void;
  /**
   * Answers a successful install's callback instead of the installed page: the admin page signs in
   * the admin the grant proved (../admin/admin-session-start.ts), so it needs no second sign-in.
   */
  onInstalledByAdmin?: (
    installed: {
      accountId: string;
      subdomain: string;
      installer: { id: number; name: string; locale: string | null };
    },
    req: express.Request,
    res: express.Response,
  ) => Promise<void>;
  /**
   * Completes an authorization started for the admin page's sign-in (same client, same registered
   * redirect URI; the single-use state says which flow it is). Without it such states are refused.
   */
  onAdminSignIn?: (
    input: { subdomain: string; code: string },
    req: express.Request,
    res: express.Response,
  ) => Promise<void>;
  /**
   * Completes an authorization an admin started to disconnect the account (removing what setup
   * created needs setup's scopes again). Without it such states are refused.
   */
  onDisconnectAuthorized?: (
    input: { subdomain: string; code: string },
    req: express.Request,
    res: express.Response,
  ) => Promise<void>;
}
