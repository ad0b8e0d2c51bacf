import { randomUUID } from 'node:crypto';
import type { TWorkspaceUser } from '../workspace-deps';
import type { TLoadedApp } from './load-app';
import type { TSupportApi } from './support-api';
import type { TTicketSnapshot } from './ticket-events';

/** One open host page: the agent, the ticket, and the installed app (with its secrets, server side). */
export interface TWorkspaceSession {
  id: string;
  subdomain: string;
  ticketId: number;
  agent: TWorkspaceUser;
  app: TLoadedApp | null;
  appGuid: string;
  api: TSupportApi;
  snapshot: TTicketSnapshot;
}

export function createSessionStore(maxSessions: number) {
  // Map keeps insertion order: the first key is the oldest session.
  const sessions = new Map<string, TWorkspaceSession>();
  return {
    add(session: Omit<TWorkspaceSession, 'id'>): TWorkspaceSession {
      const full = { ...session, id: randomUUID() };
      sessions.set(full.id, full);
      while (sessions.size > maxSessions) {
        const oldest = sessions.keys().next().value;
        if (oldest === undefined) break;
        sessions.delete(oldest);
      }
      return full;
    },
    get(id: string): TWorkspaceSession | undefined {
      return sessions.get(id);
    },
  };
}
export type TSessionStore = ReturnType<typeof createSessionStore>;
