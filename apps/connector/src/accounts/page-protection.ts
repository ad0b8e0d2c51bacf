// What guards the unauthenticated pages (/install, /oauth/callback, /admin/sign-in):
// - security headers (helmet): a CSP that allows nothing but the page's own forms and its one
//   stylesheet (by hash), no framing,
//   nosniff, no referrer (the callback's URL carries the code and the state);
// - a per-client rate limit on the requests that start an authorization (each one stores a state
//   row). The limiter counts in this process's memory: with N instances a client gets N times the
//   limit, which still bounds the rows (install-states also caps the table).
import type { RequestHandler } from 'express';
import { subdomainFromInput } from '@incident-desk/zendesk-api';
import { rateLimit } from 'express-rate-limit';
import helmet from 'helmet';
import { escapeHtml, htmlPage, PAGE_STYLE_SOURCE } from './html-page';

/**
 * The CSP source that lets the pages' forms lead to Zendesk: a form's GET to /install or
 * /admin/sign-in is answered with a redirect to the account's authorize page, and form-action
 * applies to that redirect too. `https://{subdomain}.zendesk.com` gives `https://*.zendesk.com`;
 * a template with the subdomain in the path (the sandbox) gives its origin.
 */
export function zendeskFormActionSource(baseUrlTemplate: string): string {
  const url = new URL(baseUrlTemplate.replace('{subdomain}', 'subdomain-placeholder'));
  if (!url.hostname.includes('subdomain-placeholder')) return url.origin;
  const host = url.host.replace(/^subdomain-placeholder\./, '*.');
  return `${url.protocol}//${host}`;
}

export function pageSecurityHeaders(options: {
  baseUrlTemplate: string;
  secure: boolean;
}): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        baseUri: ["'none'"],
        // the pages' one constant stylesheet, by its hash (html-page.ts)
        styleSrc: [PAGE_STYLE_SOURCE],
        formAction: ["'self'", zendeskFormActionSource(options.baseUrlTemplate)],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: options.secure,
    xContentTypeOptions: true,
  });
}

const OAUTH_START_WINDOW_MS = 10 * 60 * 1000;
const DEFAULT_OAUTH_STARTS_PER_WINDOW = 30;

/**
 * Limits how often one client (its IP, as Express sees it: set CONNECTOR_TRUST_PROXY behind a
 * proxy) starts an authorization. Only requests that store a state count (a valid subdomain): the
 * bare form and a refused subdomain do not. limit 0 turns it off.
 */
export function oauthStartLimiter(
  limit: number = DEFAULT_OAUTH_STARTS_PER_WINDOW,
  windowMs: number = OAUTH_START_WINDOW_MS,
): RequestHandler {
  if (limit === 0) return (_req, _res, next) => next();
  return rateLimit({
    windowMs,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    skip: (req) => subdomainFromInput(req.query.subdomain) === null,
    handler: (_req, res, _next, options) => {
      res.setHeader('Cache-Control', 'no-store');
      res
        .status(options.statusCode)
        .type('html')
        .send(
          htmlPage(
            'Too many attempts',
            `<p id="error">${escapeHtml(
              'Too many installations or sign-ins were started from here. Wait a few minutes and try again.',
            )}</p>`,
          ),
        );
    },
  });
}
