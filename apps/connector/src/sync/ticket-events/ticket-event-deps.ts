import type { TDatabase } from '@incident-desk/db';

export interface TicketEventDeps {
  db: TDatabase;
  now?: () => Date;
  /**
   * The queue's last try for this job: a transient failure is then written to the ticket as a
   * note instead of being thrown for another retry. Default false.
   */
  lastAttempt?: boolean;
}

export const nowOf = (deps: TicketEventDeps): Date => (deps.now ? deps.now() : new Date());
