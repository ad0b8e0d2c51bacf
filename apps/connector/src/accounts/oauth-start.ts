// The start of a Zendesk OAuth flow (install, admin sign-in): the subdomain asked for, then the
// browser sent to Zendesk's authorization page.
import type { Request, Response } from 'express';
import { subdomainFromInput } from '@incident-desk/zendesk-api';
import { zendeskBaseUrl, type TZendeskOAuthConfig } from './zendesk-oauth-config';

/** A page with the subdomain form: an error to show, and what was entered. */
export type SubdomainForm = (error?: string, entered?: string) => string;

/**
 * The subdomain of `?subdomain=`; without one the form is answered, and with one that is not a
 * subdomain the form with an error (400). Null when an answer was sent.
 */
export function subdomainOrForm(req: Request, res: Response, form: SubdomainForm): string | null {
  if (req.query.subdomain === undefined) {
    res.type('html').send(form());
    return null;
  }
  const subdomain = subdomainFromInput(req.query.subdomain);
  if (subdomain) return subdomain;
  res
    .status(400)
    .type('html')
    .send(
      form(
        'That is not a Zendesk subdomain. Enter the part before .zendesk.com (acme for acme.zendesk.com).',
        typeof req.query.subdomain === 'string' ? req.query.subdomain : undefined,
      ),
    );
  return null;
}

export function redirectToAuthorization(
  res: Response,
  oauth: TZendeskOAuthConfig,
  subdomain: string,
  scope: string,
  state: string,
): void {
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: oauth.clientId,
    redirect_uri: oauth.redirectUri,
    scope,
    state,
  });
  res.redirect(
    302,
    `${zendeskBaseUrl(oauth.baseUrlTemplate, subdomain)}/oauth/authorizations/new?${params}`,
  );
}
