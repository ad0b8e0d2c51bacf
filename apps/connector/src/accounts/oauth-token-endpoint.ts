// POST {base}/oauth/tokens for every grant. Only a 400 invalid_grant means the grant is dead
// (expired, revoked, reused); everything else is transient or a configuration error.
import { z } from 'zod';

const ZTokenResponse = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  scope: z.string().default(''),
  expires_in: z.number().positive().optional(),
  refresh_token_expires_in: z.number().positive().optional(),
});

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string | null;
  scope: string;
  accessExpiresAt: Date;
  refreshExpiresAt: Date | null;
}

export class OAuthGrantError extends Error {
  override name = 'OAuthGrantError';
  constructor(
    readonly status: number,
    readonly code: string,
    description: string,
  ) {
    super(`token endpoint answered ${status} ${code}${description ? `: ${description}` : ''}`);
  }

  /** The grant can never succeed again: re-authorisation is needed. */
  get isInvalidGrant(): boolean {
    return this.status === 400 && this.code === 'invalid_grant';
  }
}

export interface TokenRequest {
  baseUrl: string;
  body: Record<string, string | number>;
  timeoutMs: number;
  now: () => number;
  fetch?: typeof fetch;
}

export async function requestTokens(request: TokenRequest): Promise<IssuedTokens> {
  const requestedAt = request.now();
  const response = await (request.fetch ?? fetch)(`${request.baseUrl}/oauth/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(request.body),
    signal: AbortSignal.timeout(request.timeoutMs),
    // a redirect would resend the client secret and the code or refresh token elsewhere
    redirect: 'manual',
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const error = z
      .object({ error: z.string().default('unknown'), error_description: z.string().default('') })
      .safeParse(json);
    throw new OAuthGrantError(
      response.status,
      error.success ? error.data.error : 'unknown',
      error.success ? error.data.error_description : text.slice(0, 200),
    );
  }
  const tokens = ZTokenResponse.parse(json);
  const expiresIn = tokens.expires_in ?? Number(request.body.expires_in ?? 1800);
  return {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token ?? null,
    scope: tokens.scope,
    // Counted from when the request left, so the stored expiry is never later than the real one.
    accessExpiresAt: new Date(requestedAt + expiresIn * 1000),
    refreshExpiresAt:
      tokens.refresh_token === undefined
        ? null
        : new Date(
            requestedAt +
              (tokens.refresh_token_expires_in ?? Number(request.body.refresh_token_expires_in)) *
                1000,
          ),
  };
}
