import type { HttpTransport } from '../core/http-transport';
import type { ZendeskRequestOptions } from '../core/options';

export class OAuthTokens {
  constructor(private readonly transport: HttpTransport) {}

  /**
   * DELETE /api/v2/oauth/tokens/current.json (204): revokes the token the request is made with,
   * at once and for good; its refresh token goes with it. Any authenticated user may revoke their
   * own token, whatever its scopes.
   */
  async revokeCurrent(options?: ZendeskRequestOptions): Promise<void> {
    await this.transport.empty({
      method: 'DELETE',
      path: '/api/v2/oauth/tokens/current.json',
      options,
    });
  }
}
