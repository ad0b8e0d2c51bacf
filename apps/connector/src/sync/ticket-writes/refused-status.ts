// A Status value Zendesk refused: the update goes again without it.
import { ZendeskRecordInvalidError } from '@incident-desk/zendesk-api';
import type { AccountContext } from '../../accounts';
import type { TicketBatch } from './ticket-batch';

/** Whether the update carries a value for the Status drop-down. */
export function carriesStatus(ctx: AccountContext, batch: TicketBatch): boolean {
  return (
    ctx.fields.status !== null &&
    (batch.input.custom_fields ?? []).some((field) => field.id === ctx.fields.status)
  );
}

/**
 * The update without its Status value when Zendesk refused that value (422 naming the field: the
 * drop-down lacks the option, say an admin removed it), so the note and the rest still go; a
 * rerun of setup adds the option back. Undefined for any other refusal.
 */
export function withoutRefusedStatus(
  ctx: AccountContext,
  batch: TicketBatch,
  error: unknown,
): TicketBatch | undefined {
  if (!(error instanceof ZendeskRecordInvalidError) || !carriesStatus(ctx, batch)) return undefined;
  if (!Object.hasOwn(error.fieldErrors, `custom_field_${ctx.fields.status}`)) return undefined;
  const { custom_fields: fields = [], ...rest } = batch.input;
  const kept = fields.filter((field) => field.id !== ctx.fields.status);
  return { ...batch, input: { ...rest, ...(kept.length ? { custom_fields: kept } : {}) } };
}
