import type { TDatabase } from '@incident-desk/db';

export interface TicketEventDeps {
  db: TDatabase;
  now?: () => Date;
  /**
   * The queue's last try for this job: a transient failure is then written to the ticket as a
   * note instead of being thrown for another retry. Default false.
   */
  lastAttempt?: boolean;
  /**
   * The inbox receipt the job came from (the job id). A report that ends having created nothing
   * releases it, so that the same request (the submit tag added again) is accepted anew.
   */
  receiptId?: string;
}

export const nowOf = (deps: TicketEventDeps): Date => (deps.now ? deps.now() : new Date());
