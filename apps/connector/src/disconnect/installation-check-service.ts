// The installation check (app-installation-check.ts), run by every instance that runs workers:
// each pass takes the connected accounts not checked for INSTALLATION_CHECK_MINUTES and claims each
// by moving its checked time first, so two instances do not ask Zendesk twice for one account. One
// Zendesk call per account and interval; accounts already disconnected are not asked again.
import type { TDatabase } from '@incident-desk/db';
import type { Logger } from '../log';
import { startPeriodicPass } from '../worker';
import {
  checkAppInstallation,
  type InstallationCheckDeps,
  type TInstallationCheck,
} from './app-installation-check';

const FIRST_PASS_DELAY_MS = 30 * 1000;
/**
 * Accounts checked per pass at most, one Zendesk call each, one after another; the next pass (a
 * minute later) takes the rest. One instance thus keeps up with 200 × 15 = 3,000 accounts at the
 * default interval; instances share the accounts.
 */
const ACCOUNTS_PER_PASS = 200;
const PASS_INTERVAL_MS = 60 * 1000;

export interface InstallationCheckOptions extends InstallationCheckDeps {
  /** How often each account is checked. */
  intervalMs: number;
  logger: Logger;
  /** Told how each check ended (metrics). */
  onChecked?: (result: TInstallationCheck) => void;
  firstPassDelayMs?: number;
  passIntervalMs?: number;
}

export interface InstallationCheckService {
  /** One pass now; resolves with each checked account's result. */
  runOnce(): Promise<Map<string, TInstallationCheck>>;
  stop(): Promise<void>;
}

/** Claims the accounts due for a check: their checked time moves to now, or another took them. */
async function claimDue(db: TDatabase, now: Date, intervalMs: number): Promise<string[]> {
  const due = new Date(now.getTime() - intervalMs);
  const candidates = await db.prisma.account.findMany({
    where: {
      disconnectedAt: null,
      zendeskCredential: { is: { state: 'active' } },
      OR: [{ installationCheckedAt: null }, { installationCheckedAt: { lt: due } }],
    },
    select: { id: true, installationCheckedAt: true },
    orderBy: { installationCheckedAt: { sort: 'asc', nulls: 'first' } },
    take: ACCOUNTS_PER_PASS,
  });
  const claimed: string[] = [];
  for (const candidate of candidates) {
    const taken = await db.prisma.account.updateMany({
      where: { id: candidate.id, installationCheckedAt: candidate.installationCheckedAt },
      data: { installationCheckedAt: now },
    });
    if (taken.count === 1) claimed.push(candidate.id);
  }
  return claimed;
}

export function startInstallationChecks(
  options: InstallationCheckOptions,
): InstallationCheckService {
  const { db, logger } = options;
  async function pass(stopped: () => boolean): Promise<Map<string, TInstallationCheck>> {
    const results = new Map<string, TInstallationCheck>();
    for (const accountId of await claimDue(db, options.now(), options.intervalMs)) {
      if (stopped()) break;
      const { result, error } = await checkAppInstallation(options, accountId);
      results.set(accountId, result);
      options.onChecked?.(result);
      if (result === 'uninstalled')
        logger.warn('the sidebar app was uninstalled: the account is disconnected', { accountId });
      else if (error)
        logger.warn('installation check: Zendesk could not say', { accountId, error });
    }
    return results;
  }

  return startPeriodicPass<Map<string, TInstallationCheck>>({
    pass,
    empty: new Map(),
    firstPassDelayMs: options.firstPassDelayMs ?? FIRST_PASS_DELAY_MS,
    intervalMs: options.passIntervalMs ?? PASS_INTERVAL_MS,
    onError: (error) =>
      logger.warn('installation check failed; the next pass tries again', { error }),
  });
}
