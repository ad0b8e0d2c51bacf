import { formValue, type MultipartForm } from '../forms/read-multipart-form';
import { AGENT_STATUSES } from './ticket-form';

const FIELD = /^field_(\d+)$/;

export class FormInputError extends Error {}

/** A ticket update (the Support API's `ticket` object) from the workspace form, without uploads yet. */
export interface FormUpdate {
  ticket: Record<string, unknown>;
  comment: { body: string; public: boolean } | null;
}

/**
 * What the agent changed in the form: fields whose value differs from the one rendered, tags to add
 * and remove (additional_tags / remove_tags, so concurrent tag changes stay), a comment, a new status.
 */
export function formUpdate(form: MultipartForm): FormUpdate {
  const ticket: Record<string, unknown> = {};
  const customFields: Array<{ id: number; value: string | null }> = [];
  for (const name of form.fields.keys()) {
    const match = FIELD.exec(name);
    if (!match) continue;
    const value = formValue(form, name);
    if (value === formValue(form, `was_${name}`)) continue;
    customFields.push({ id: Number(match[1]), value: value === '' ? null : value });
  }
  if (customFields.length) ticket.custom_fields = customFields;

  const add = formValue(form, 'add_tags')
    .split(/[\s,]+/)
    .filter((t) => t !== '');
  const remove = form.fields.get('remove_tag') ?? [];
  if (add.length) ticket.additional_tags = add;
  if (remove.length) ticket.remove_tags = remove;

  const status = formValue(form, 'status');
  const wasStatus = formValue(form, 'was_status');
  if (status !== '' && status !== wasStatus) {
    const allowed: readonly string[] = [...AGENT_STATUSES, ...(wasStatus === 'new' ? ['new'] : [])];
    if (!allowed.includes(status))
      throw new FormInputError(`Status "${status}" is not one of ${allowed.join(', ')}`);
    ticket.status = status;
  }

  const body = formValue(form, 'comment_body');
  const kind = formValue(form, 'comment_kind') || 'public';
  if (kind !== 'public' && kind !== 'internal')
    throw new FormInputError('A comment is a public reply or an internal note');
  const comment = body.trim() === '' ? null : { body, public: kind === 'public' };
  if (!comment && form.files.length) throw new FormInputError('Write a comment to attach files to');
  return { ticket, comment };
}
