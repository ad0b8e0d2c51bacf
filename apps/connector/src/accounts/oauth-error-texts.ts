// Our own words for the error codes an authorization response can carry (RFC 6749 4.1.2.1). The
// callback URL is anyone's to write, so its error_description is never shown, and a code we do
// not know is not echoed either.
const TEXTS: Record<string, string> = {
  access_denied: 'The authorization was denied on Zendesk.',
  invalid_request: 'Zendesk found the authorization request malformed.',
  unauthorized_client: 'Zendesk does not allow incident-desk to ask for this authorization.',
  unsupported_response_type: 'Zendesk does not support the kind of authorization asked for.',
  invalid_scope: 'Zendesk refused the permissions incident-desk asked for.',
  server_error: 'Zendesk met an error while authorizing.',
  temporarily_unavailable: 'Zendesk could not authorize just now.',
};

export function authorizationErrorText(code: string): string {
  return Object.hasOwn(TEXTS, code)
    ? `${TEXTS[code]} (${code})`
    : 'Zendesk did not authorize the request.';
}
