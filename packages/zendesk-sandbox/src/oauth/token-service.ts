import type { OAuthClientRecord, TokenRecord, UserRecord } from '../state/model';
import { randomHex, type SandboxState } from '../state/sandbox-state';

export interface IssueOptions {
  expiresIn: number | null;
  refreshExpiresIn: number | null;
  withRefresh: boolean;
}

export class TokenService {
  constructor(private readonly state: SandboxState) {}

  issue(
    subdomain: string,
    client: OAuthClientRecord,
    user: UserRecord,
    scopes: string[],
    options: IssueOptions,
  ): TokenRecord {
    const now = this.state.now();
    const token: TokenRecord = {
      id: this.state.id(),
      subdomain,
      client_identifier: client.identifier,
      user_id: user.id,
      scopes,
      access_token: randomHex(32),
      expires_at: options.expiresIn === null ? null : now + options.expiresIn * 1000,
      refresh_token: options.withRefresh ? randomHex(32) : null,
      refresh_expires_at:
        options.withRefresh && options.refreshExpiresIn !== null
          ? now + options.refreshExpiresIn * 1000
          : null,
      revoked: false,
      created_at: this.state.isoNow(),
    };
    this.state.tokens.push(token);
    return token;
  }

  /** A live access token of this account, or undefined (unknown, revoked, expired or another account's). */
  findAccess(subdomain: string, accessToken: string): TokenRecord | undefined {
    const token = this.state.tokens.find((t) => t.access_token === accessToken);
    if (!token || token.revoked || token.subdomain !== subdomain) return undefined;
    if (token.expires_at !== null && token.expires_at <= this.state.now()) return undefined;
    return token;
  }

  findRefresh(
    subdomain: string,
    clientIdentifier: string,
    refreshToken: string,
  ): TokenRecord | undefined {
    const token = this.state.tokens.find((t) => t.refresh_token === refreshToken);
    if (
      !token ||
      token.revoked ||
      token.subdomain !== subdomain ||
      token.client_identifier !== clientIdentifier
    )
      return undefined;
    if (token.refresh_expires_at !== null && token.refresh_expires_at <= this.state.now())
      return undefined;
    return token;
  }

  /** Finds a token by its access or refresh token string, in any state (control API). */
  findAny(value: string): TokenRecord | undefined {
    return this.state.tokens.find((t) => t.access_token === value || t.refresh_token === value);
  }

  revoke(token: TokenRecord): void {
    token.revoked = true;
  }

  expire(token: TokenRecord, which: 'access' | 'refresh' | 'both'): void {
    const past = this.state.now() - 1;
    if (which !== 'refresh') token.expires_at = past;
    if (which !== 'access' && token.refresh_token !== null) token.refresh_expires_at = past;
  }
}
