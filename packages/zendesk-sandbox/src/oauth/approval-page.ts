import { escapeHtml } from '@incident-desk/threat-text';
import type { OAuthClientRecord, UserRecord } from '../state/model';

/**
 * Zendesk shows a signed-in agent an "Allow access?" page. The sandbox has no sign-in: the page lets the
 * tester pick which of the account's agents approves (`user_id` query parameter preselects one).
 */
export function renderApprovalPage(input: {
  subdomain: string;
  client: OAuthClientRecord;
  agents: UserRecord[];
  selectedUserId: number | undefined;
  params: Record<string, string>;
  scopes: string[];
}): string {
  const hidden = Object.entries(input.params)
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
    )
    .join('\n      ');
  const options = input.agents
    .map(
      (u) =>
        `<option value="${u.id}"${u.id === input.selectedUserId ? ' selected' : ''}>${escapeHtml(u.name)} (${escapeHtml(u.email)}, ${u.role})</option>`,
    )
    .join('');
  const scopes = input.scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('');
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Allow access? - ${escapeHtml(input.subdomain)} (Zendesk sandbox)</title></head>
  <body>
    <h1>Allow ${escapeHtml(input.client.name)} to access ${escapeHtml(input.subdomain)}?</h1>
    <p>The app asks for:</p>
    <ul id="scopes">${scopes}</ul>
    <form method="post" action="/_z/${escapeHtml(input.subdomain)}/oauth/authorizations">
      ${hidden}
      <label>Signed in as <select name="user_id" id="user_id">${options}</select></label>
      <p>
        <button type="submit" name="decision" value="allow" id="allow">Allow</button>
        <button type="submit" name="decision" value="deny" id="deny">Deny</button>
      </p>
    </form>
  </body>
</html>`;
}

export function renderErrorPage(title: string, message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p id="error">${escapeHtml(message)}</p></body></html>`;
}
