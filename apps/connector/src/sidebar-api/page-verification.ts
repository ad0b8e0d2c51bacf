// Who opened the sidebar's page: the ZAF token verified with the app's public key (read again once,
// rate-limited, when the key may have been rotated), from an installation of this app.
import type { AccountContext } from '../accounts';
import type { AppPublicKeys } from './app-public-key';
import { verifyZafToken, type ZafIdentity } from './zaf-token';

export interface PageVerificationOptions {
  publicKeys: AppPublicKeys;
  /** The app's id in Zendesk (its public key, its installations). */
  appId: number;
  now: () => Date;
  log: (message: string) => void;
}

export function createPageVerification(options: PageVerificationOptions) {
  const installationCache = new Map<string, { ids: Set<number>; at: number }>();

  /** The account's installations of this app, from Zendesk; read again (at most every 30 s) on a miss. */
  async function isInstallation(ctx: AccountContext, installationId: number): Promise<boolean> {
    const now = options.now().getTime();
    const cached = installationCache.get(ctx.accountId);
    if (cached && (cached.ids.has(installationId) || now - cached.at < 30_000))
      return cached.ids.has(installationId);
    const installations = await ctx.zendesk.apps.installations();
    const ids = new Set(
      installations
        .filter((i) => i.app_id === options.appId && i.enabled !== false)
        .map((i) => i.id),
    );
    if (installationCache.size > 10_000) installationCache.clear();
    installationCache.set(ctx.accountId, { ids, at: now });
    return ids.has(installationId);
  }

  async function verifiedIdentity(ctx: AccountContext, token: string): Promise<ZafIdentity | null> {
    const fetchPem = () => ctx.zendesk.apps.publicKey(options.appId);
    let result = await verifyZafToken(
      token,
      await options.publicKeys.current(fetchPem),
      options.now(),
    );
    if (!result.ok && result.reason === 'signature') {
      // the app's key may have been rotated: one fresh read, rate-limited
      const fresh = await options.publicKeys.refetched(fetchPem);
      if (fresh) result = await verifyZafToken(token, fresh, options.now());
    }
    if (!result.ok) {
      options.log(`sidebar page: token refused (${result.reason})`);
      return null;
    }
    return result.identity;
  }

  /** The token's identity when the key kept from earlier pages verifies it; Zendesk is not asked. */
  async function verifiedWithKeptKey(token: string): Promise<ZafIdentity | null> {
    const key = await options.publicKeys.kept()?.catch(() => null);
    if (!key) return null;
    const result = await verifyZafToken(token, key, options.now());
    return result.ok ? result.identity : null;
  }

  return { isInstallation, verifiedIdentity, verifiedWithKeptKey };
}

export type PageVerification = ReturnType<typeof createPageVerification>;
