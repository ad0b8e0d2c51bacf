// Who approved an authorization: read once with the fresh token (users/me), so only a Zendesk admin
// installs the app or opens its admin page.
import { z } from 'zod';

const ZMe = z.object({
  user: z.object({
    id: z.number().int(),
    name: z.string(),
    role: z.string(),
    // the user's language in Zendesk ("fr", "en-US"); the admin page speaks it
    locale: z.string().max(35).nullish().catch(undefined),
  }),
});
export type SignedInUser = z.infer<typeof ZMe>['user'];

export interface ZendeskCallOptions {
  fetch?: typeof fetch;
  timeoutMs: number;
}

const headersFor = (accessToken: string) => ({
  authorization: `Bearer ${accessToken}`,
  accept: 'application/json',
});

/** The user the token acts for; undefined when Zendesk does not say. */
export async function readSignedInUser(
  baseUrl: string,
  accessToken: string,
  options: ZendeskCallOptions,
): Promise<SignedInUser | undefined> {
  const response = await (options.fetch ?? fetch)(`${baseUrl}/api/v2/users/me.json`, {
    headers: headersFor(accessToken),
    signal: AbortSignal.timeout(options.timeoutMs),
    redirect: 'manual', // the bearer token never follows a redirect
  }).catch(() => undefined);
  if (!response?.ok) return undefined;
  const parsed = ZMe.safeParse(await response.json().catch(() => undefined));
  return parsed.success ? parsed.data.user : undefined;
}

/** Revokes the token itself; best effort, since a token that cannot be revoked still expires. */
export async function revokeToken(
  baseUrl: string,
  accessToken: string,
  options: ZendeskCallOptions,
): Promise<void> {
  await (options.fetch ?? fetch)(`${baseUrl}/api/v2/oauth/tokens/current.json`, {
    method: 'DELETE',
    headers: headersFor(accessToken),
    signal: AbortSignal.timeout(options.timeoutMs),
    redirect: 'manual', // the bearer token never follows a redirect
  }).catch(() => undefined);
}
