// Admin page sessions: the cookie holds 32 random bytes; the database holds only their SHA-256,
// the account, the Zendesk user and an expiry. The CSRF token is derived from the cookie value, so
// only a page that can read our own responses (same origin) can send it back.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { TDatabase } from '@incident-desk/db';
import { adminLanguage, type AdminLanguage } from './admin-language';

export const ADMIN_SESSION_TTL_MS = 8 * 60 * 60 * 1000;
/** How long a sign-in waiting for the admin's confirmation (it would switch accounts) is kept. */
const PENDING_SESSION_TTL_MS = 5 * 60 * 1000;

export interface AdminSession {
  accountId: string;
  subdomain: string;
  zendeskUserId: number;
  userName: string;
  /** The language the admin page speaks to this admin (their Zendesk locale): `en` or `fr`. */
  language: AdminLanguage;
  expiresAt: Date;
  /** When the user's Zendesk role was last seen to be admin. */
  roleCheckedAt: Date;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');
/** What the database keys a session by (and what the Lax session marker cookie holds). */
export const sessionTokenHash = sha256;

export async function createAdminSession(
  db: TDatabase,
  input: { accountId: string; zendeskUserId: number; userName: string; locale?: string | null },
  now: Date,
  /** Pending: usable only once confirmed (confirmPendingSession), and only for a few minutes. */
  pending = false,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.prisma.adminSession.create({
    data: {
      tokenHash: sha256(token),
      accountId: input.accountId,
      zendeskUserId: BigInt(input.zendeskUserId),
      userName: input.userName,
      locale: input.locale ?? null,
      pending,
      roleCheckedAt: now,
      expiresAt: new Date(
        now.getTime() + (pending ? PENDING_SESSION_TTL_MS : ADMIN_SESSION_TTL_MS),
      ),
    },
  });
  await db.prisma.adminSession.deleteMany({ where: { expiresAt: { lt: now } } });
  return token;
}

export async function findAdminSession(
  db: TDatabase,
  token: string,
  now: Date,
): Promise<AdminSession | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  return findAdminSessionByHash(db, sha256(token), now);
}

export async function findAdminSessionByHash(
  db: TDatabase,
  tokenHash: string,
  now: Date,
): Promise<AdminSession | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(tokenHash)) return null;
  const row = await db.prisma.adminSession.findUnique({
    where: { tokenHash },
    include: { account: true },
  });
  if (!row || row.pending || row.expiresAt <= now) return null;
  return {
    accountId: row.accountId,
    subdomain: row.account.zendeskSubdomain,
    zendeskUserId: Number(row.zendeskUserId),
    userName: row.userName,
    language: adminLanguage(row.locale),
    expiresAt: row.expiresAt,
    roleCheckedAt: row.roleCheckedAt,
  };
}

/** Turns a pending sign-in into a session (full lifetime from now); false when there is none. */
export async function confirmPendingSession(
  db: TDatabase,
  token: string,
  now: Date,
): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return false;
  const confirmed = await db.prisma.adminSession.updateMany({
    where: { tokenHash: sha256(token), pending: true, expiresAt: { gt: now } },
    data: {
      pending: false,
      roleCheckedAt: now,
      expiresAt: new Date(now.getTime() + ADMIN_SESSION_TTL_MS),
    },
  });
  return confirmed.count === 1;
}

export async function markRoleChecked(db: TDatabase, token: string, now: Date): Promise<void> {
  await db.prisma.adminSession.updateMany({
    where: { tokenHash: sha256(token) },
    data: { roleCheckedAt: now },
  });
}

/** Ends every session of a Zendesk user on an account (their admin role is gone). */
export async function deleteUserSessions(
  db: TDatabase,
  accountId: string,
  zendeskUserId: number,
): Promise<void> {
  await db.prisma.adminSession.deleteMany({
    where: { accountId, zendeskUserId: BigInt(zendeskUserId) },
  });
}

export async function deleteAdminSession(db: TDatabase, token: string): Promise<void> {
  await db.prisma.adminSession.deleteMany({ where: { tokenHash: sha256(token) } });
}

export function csrfTokenOf(sessionToken: string): string {
  return sha256(`csrf:${sessionToken}`);
}

export function csrfTokenMatches(sessionToken: string, presented: string | undefined): boolean {
  if (!presented) return false;
  const expected = Buffer.from(csrfTokenOf(sessionToken));
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
