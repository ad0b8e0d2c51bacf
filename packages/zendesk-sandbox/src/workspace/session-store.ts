import { randomUUID } from 'node:crypto';
import type { WorkspaceUser } from '../workspace-deps';
import type { LoadedApp } from './load-app';
import type { TSupportApi } from './support-api';
import type { TicketSnapshot } from './ticket-events';

/** One open host page: the agent, the ticket, and the installed app (with its secrets, server side). */
export interface WorkspaceSession {
  id: string;
  subdomain: string;
  ticketId: number;
  agent: WorkspaceUser;
  app: LoadedApp | null;
  appGuid: string;
  api: TSupportApi;
  snapshot: TicketSnapshot;
}

export function createSessionStore(maxSessions: number) {
  // Map keeps insertion order: the first key is the oldest session.
  const sessions = new Map<string, WorkspaceSession>();
  return {
    add(session: Omit<WorkspaceSession, 'id'>): WorkspaceSession {
      const full = { ...session, id: randomUUID() };
      sessions.set(full.id, full);
      while (sessions.size > maxSessions) {
        const oldest = sessions.keys().next().value;
        if (oldest === undefined) break;
        sessions.delete(oldest);
      }
      return full;
    },
    get(id: string): WorkspaceSession | undefined {
      return sessions.get(id);
    },
  };
}
export type TSessionStore = ReturnType<typeof createSessionStore>;
