import type { WorkspaceDeps } from '../workspace-deps';
import { accountBaseUrl } from '../workspace-deps';
import { createSupportApi, type TSupportApi } from './support-api';

/** Support API clients acting as an agent, sharing one token per agent until it is refused. */
export function createAgentApis(
  deps: Pick<WorkspaceDeps, 'apiBaseUrl' | 'issueAgentToken'>,
  fetchImpl: typeof fetch,
) {
  const tokens = new Map<string, Promise<string>>();
  return (subdomain: string, userId: number): TSupportApi => {
    const key = `${subdomain}\u0000${userId}`;
    return createSupportApi({
      accountBaseUrl: accountBaseUrl(deps.apiBaseUrl(), subdomain),
      fetch: fetchImpl,
      token: (fresh) => {
        let token = tokens.get(key);
        if (!token || fresh) {
          const issued = deps.issueAgentToken(subdomain, userId);
          issued.catch(() => {
            if (tokens.get(key) === issued) tokens.delete(key);
          });
          tokens.set(key, issued);
          token = issued;
        }
        return token;
      },
    });
  };
}
