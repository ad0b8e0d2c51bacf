// The pages of the marketplace install: the subdomain form, what a refused authorization says,
// and the success page.
import { escapeHtml, htmlPage, subdomainField } from './html-page';

export const STATE_PROBLEMS = {
  missing: 'The authorization response carries no state. Start the installation again.',
  unknown: 'This authorization was not started here. Start the installation again.',
  expired: 'This authorization took longer than 10 minutes. Start the installation again.',
  consumed: 'This authorization was already used. Start the installation again.',
  otherBrowser:
    'This authorization was not started in this browser, or took longer than 10 minutes. Start the installation again.',
} as const;

export function installForm(problem?: string, typed?: string): string {
  return htmlPage(
    'Install incident-desk',
    `${problem ? `<p id="error">${escapeHtml(problem)}</p>` : ''}
    <form method="get" action="install">
      ${subdomainField(typed, problem !== undefined)}
      <button type="submit" id="continue">Continue</button>
    </form>`,
  );
}

/**
 * The success page. The sidebar needs no secret: Zendesk signs its page requests (signedUrls). A
 * re-authorisation of an account whose incident connection is saved is not asked for it again.
 */
export function installedPage(subdomain: string, scope: string, hasIncidentKey: boolean): string {
  const next = hasIncidentKey
    ? 'to follow setup: the incident API key is already saved.'
    : 'to enter the incident API key and follow setup.';
  return htmlPage(
    'incident-desk is connected',
    `<p id="success">${escapeHtml(`incident-desk can now act for ${subdomain} with the scopes: ${scope}. Setup runs now, and the token is narrowed afterwards.`)}</p>
    <p><a id="admin-link" href="/admin/">Open the admin page</a> ${escapeHtml(next)}</p>`,
  );
}
