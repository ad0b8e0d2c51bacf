// Zendesk tells no server when an app is uninstalled (there is no app lifecycle event or webhook
// for Support apps; developers asking for one on Zendesk's community were not answered). So the
// connector looks: the account's app installations (GET /api/v2/apps/installations.json, which the
// sidebar page reads too) no longer list the sidebar app that was seen there before. An app not
// seen yet may simply not be installed yet (an admin may authorise before installing), so only an
// app once seen can be found uninstalled; a disabled app is still installed.
import type { TDatabase } from '@incident-desk/db';
import {
  AccountUnavailableError,
  type DatabaseAccountContextProvider,
  markAccountDisconnected,
} from '../accounts';

export type TInstallationCheck =
  /** The app is installed: seen now. */
  | 'installed'
  /** Not listed, never seen before: nothing to conclude. */
  | 'not_yet_installed'
  /** Not listed, seen before: the account is disconnected (app_uninstalled). */
  | 'uninstalled'
  /** Zendesk could not be asked (the token, the network, a scope): nothing concluded. */
  | 'unknown';

export interface InstallationCheckDeps {
  db: TDatabase;
  accounts: Pick<DatabaseAccountContextProvider, 'zendeskFor'>;
  /** The sidebar app's id in Zendesk (config.sidebar.appId). */
  appId: number;
  now: () => Date;
}

export async function checkAppInstallation(
  deps: InstallationCheckDeps,
  accountId: string,
): Promise<{ result: TInstallationCheck; error?: unknown }> {
  const { db, appId } = deps;
  let listed: boolean;
  try {
    const zendesk = await deps.accounts.zendeskFor(accountId);
    const installations = await zendesk.apps.installations();
    listed = installations.some((installation) => installation.app_id === appId);
  } catch (error) {
    // a refused refresh has already disconnected the account (authorization_lost)
    return { result: 'unknown', ...(error instanceof AccountUnavailableError ? {} : { error }) };
  }
  const now = deps.now();
  if (listed) {
    await db.prisma.account.updateMany({
      where: { id: accountId },
      data: { appInstallationSeenAt: now, installationCheckedAt: now },
    });
    return { result: 'installed' };
  }
  const account = await db.prisma.account.findUnique({
    where: { id: accountId },
    select: { appInstallationSeenAt: true },
  });
  if (!account?.appInstallationSeenAt) return { result: 'not_yet_installed' };
  await markAccountDisconnected(
    db,
    accountId,
    'app_uninstalled',
    `app ${appId} no longer among the account's installations (last seen ${account.appInstallationSeenAt.toISOString()})`,
    now,
  );
  return { result: 'uninstalled' };
}
