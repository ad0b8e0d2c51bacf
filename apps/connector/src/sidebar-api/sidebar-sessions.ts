// Sidebar sessions: the bearer token a sidebar page holds after the connector verified the ZAF JWT
// Zendesk signed for it. A token the page holds (not a cookie: third-party cookies in Zendesk's
// iframe are unreliable and would need SameSite=None). Only its SHA-256 is stored, so a database
// read does not yield usable tokens. Short-lived (SESSION_TTL) and renewable while valid, each
// renewal re-checking the user in Zendesk and replacing the token; never past the cap (SESSION_CAP)
// counted from the signed page load, after which Zendesk must sign a new one (reopen the app).
import { createHash, randomBytes } from 'node:crypto';
import type { TDatabase } from '@incident-desk/db';

const SESSION_TTL_MS = 15 * 60_000;
const SESSION_CAP_MS = 12 * 60 * 60_000;

export interface SidebarSession {
  accountId: string;
  installationId: number;
  userId: number;
  expiresAt: Date;
  capAt: Date;
}

export interface IssuedSession extends SidebarSession {
  token: string;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** The opaque token's shape; anything else is refused before the database is asked. */
const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function createSidebarSessions(db: TDatabase, now: () => Date) {
  async function issue(
    binding: Omit<SidebarSession, 'expiresAt' | 'capAt'>,
    capAt: Date,
  ): Promise<IssuedSession> {
    const token = randomBytes(32).toString('base64url');
    const at = now();
    const expiresAt = new Date(Math.min(at.getTime() + SESSION_TTL_MS, capAt.getTime()));
    await db.prisma.sidebarSession.create({
      data: {
        accountId: binding.accountId,
        tokenHash: hashOf(token),
        installationId: BigInt(binding.installationId),
        userId: BigInt(binding.userId),
        expiresAt,
        capAt,
      },
    });
    // expired sessions of this account go as new ones come: the table stays small
    await db.prisma.sidebarSession.deleteMany({
      where: { accountId: binding.accountId, expiresAt: { lt: at } },
    });
    return { ...binding, token, expiresAt, capAt };
  }

  return {
    /** A session for a verified ZAF identity, capped SESSION_CAP from now. */
    open(binding: Omit<SidebarSession, 'expiresAt' | 'capAt'>): Promise<IssuedSession> {
      return issue(binding, new Date(now().getTime() + SESSION_CAP_MS));
    },

    /** The live session of a token, or null (unknown, expired, malformed). */
    async find(token: string): Promise<SidebarSession | null> {
      if (!SESSION_TOKEN.test(token)) return null;
      const row = await db.prisma.sidebarSession.findUnique({
        where: { tokenHash: hashOf(token) },
      });
      if (!row || row.expiresAt.getTime() <= now().getTime()) return null;
      return {
        accountId: row.accountId,
        installationId: Number(row.installationId),
        userId: Number(row.userId),
        expiresAt: row.expiresAt,
        capAt: row.capAt,
      };
    },

    /**
     * Replaces a live token with a new one (same binding and cap); the old one stops working.
     * Null when the token is not live any more or the cap is reached.
     */
    async renew(token: string): Promise<IssuedSession | null> {
      if (!SESSION_TOKEN.test(token)) return null;
      const row = await db.prisma.sidebarSession.findUnique({
        where: { tokenHash: hashOf(token) },
      });
      const at = now().getTime();
      if (!row || row.expiresAt.getTime() <= at || row.capAt.getTime() <= at) return null;
      // only one renewal of a token wins
      const { count } = await db.prisma.sidebarSession.deleteMany({ where: { id: row.id } });
      if (count === 0) return null;
      return issue(
        {
          accountId: row.accountId,
          installationId: Number(row.installationId),
          userId: Number(row.userId),
        },
        row.capAt,
      );
    },
  };
}
export type SidebarSessions = ReturnType<typeof createSidebarSessions>;
