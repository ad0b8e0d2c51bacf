// Random single-use OAuth `state` values, valid 10 minutes, stored so the callback can prove the
// authorization started here, for that subdomain. Anyone can start an authorization, so the table
// is bounded: each insert sweeps old rows and keeps at most the newest MAX_STORED_STATES.
import { randomBytes } from 'node:crypto';
import type { TDatabase } from '@incident-desk/db';

export const INSTALL_STATE_TTL_MS = 10 * 60 * 1000;
/** Rows kept at most (pending, expired and used ones together); the oldest go first. */
const MAX_STORED_STATES = 1000;

/** What createInstallState makes (32 random bytes, base64url); anything else was never issued. */
const STATE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** What the authorization was started for; the callback dispatches on it. */
export type StatePurpose = 'install' | 'admin_sign_in' | 'disconnect';

const PURPOSES: ReadonlySet<string> = new Set<StatePurpose>([
  'install',
  'admin_sign_in',
  'disconnect',
]);

export type StateCheck =
  | { ok: true; subdomain: string; purpose: StatePurpose }
  | { ok: false; reason: 'missing' | 'unknown' | 'expired' | 'consumed' };

export async function createInstallState(
  db: TDatabase,
  subdomain: string,
  now: Date,
  purpose: StatePurpose = 'install',
  maxStored: number = MAX_STORED_STATES,
): Promise<string> {
  const state = randomBytes(32).toString('base64url');
  await db.prisma.oAuthInstallState.create({
    data: {
      state,
      subdomain,
      purpose,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INSTALL_STATE_TTL_MS),
    },
  });
  // Expired states are useless; sweep them as new ones are made.
  await db.prisma.oAuthInstallState.deleteMany({
    where: { expiresAt: { lt: new Date(now.getTime() - INSTALL_STATE_TTL_MS) } },
  });
  await db.prisma.$executeRawUnsafe(
    `DELETE FROM oauth_install_state WHERE state IN (
       SELECT state FROM oauth_install_state ORDER BY created_at DESC, state OFFSET $1)`,
    maxStored,
  );
  return state;
}

/** Marks the state used; only the first caller for an unexpired state gets ok. */
export async function consumeInstallState(
  db: TDatabase,
  state: string | undefined,
  now: Date,
): Promise<StateCheck> {
  if (!state) return { ok: false, reason: 'missing' };
  if (!STATE_SHAPE.test(state)) return { ok: false, reason: 'unknown' };
  const row = await db.prisma.oAuthInstallState.findUnique({ where: { state } });
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.consumedAt) return { ok: false, reason: 'consumed' };
  if (row.expiresAt <= now) return { ok: false, reason: 'expired' };
  const claimed = await db.prisma.oAuthInstallState.updateMany({
    where: { state, consumedAt: null },
    data: { consumedAt: now },
  });
  return claimed.count === 1
    ? {
        ok: true,
        subdomain: row.subdomain,
        purpose: PURPOSES.has(row.purpose) ? (row.purpose as StatePurpose) : 'install',
      }
    : { ok: false, reason: 'consumed' };
}
