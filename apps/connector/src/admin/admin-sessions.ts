// Admin page sessions: the cookie holds 32 random bytes; the database holds only their SHA-256,
// the account, the Zendesk user and an expiry. The CSRF token is derived from the cookie value, so
// only a page that can read our own responses (same origin) can send it back.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { TDatabase } from '@incident-desk/db';

export const ADMIN_SESSION_TTL_MS = 8 * 60 * 60 * 1000;

export interface AdminSession {
  accountId: string;
  subdomain: string;
  zendeskUserId: number;
  userName: string;
  expiresAt: Date;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

export async function createAdminSession(
  db: TDatabase,
  input: { accountId: string; zendeskUserId: number; userName: string },
  now: Date,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.prisma.adminSession.create({
    data: {
      tokenHash: sha256(token),
      accountId: input.accountId,
      zendeskUserId: BigInt(input.zendeskUserId),
      userName: input.userName,
      expiresAt: new Date(now.getTime() + ADMIN_SESSION_TTL_MS),
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
  const row = await db.prisma.adminSession.findUnique({
    where: { tokenHash: sha256(token) },
    include: { account: true },
  });
  if (!row || row.expiresAt <= now) return null;
  return {
    accountId: row.accountId,
    subdomain: row.account.zendeskSubdomain,
    zendeskUserId: Number(row.zendeskUserId),
    userName: row.userName,
    expiresAt: row.expiresAt,
  };
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
