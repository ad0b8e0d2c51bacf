// One ticket's waiting changes as the update a pass sends for them.
import type { AccountContext } from '../../accounts/account-context';
import { coalesce, type WaitingChange } from './coalesce';

export type SentChange = WaitingChange & { writeRef: string | null; writeRefInNote: boolean };

export interface TicketBatch {
  ticketId: bigint;
  /** With the reference an earlier attempt gave them (null: never sent). */
  rows: SentChange[];
  writeRef: string;
  /** The note ends with the short reference line (the audit will not be read back). */
  refInNote: boolean;
  dashboardUrl: string | null | undefined;
  body: string | undefined;
  input: ReturnType<typeof coalesce>['input'];
}

/** The batch's update, built again with the reference in the note or not. */
export function withRefInNote(
  ctx: AccountContext,
  batch: TicketBatch,
  refInNote: boolean,
): TicketBatch {
  if (batch.refInNote === refInNote) return batch;
  const { body, input } = coalesce(ctx, batch.rows, batch.writeRef, {
    dashboardUrl: batch.dashboardUrl,
    refInNote,
  });
  return { ...batch, refInNote, body, input };
}
