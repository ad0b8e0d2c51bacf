// One ticket's waiting changes as the update a pass sends for them.
import type { AttemptedChange } from './earlier-attempts';
import type { coalesce, WaitingChange } from './coalesce';

type SentChange = WaitingChange & AttemptedChange;

export interface TicketBatch {
  ticketId: bigint;
  /** With what an earlier attempt recorded of its write (writeRef null: never sent). */
  rows: SentChange[];
  writeRef: string;
  /**
   * The write is recognised by its note, not its audit (an update_many item, or a token that
   * cannot read audits): note-identity.ts.
   */
  foundByNote: boolean;
  dashboardUrl: string | null | undefined;
  body: string | undefined;
  input: ReturnType<typeof coalesce>['input'];
}
