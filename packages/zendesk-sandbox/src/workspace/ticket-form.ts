import { escapeHtml } from '@incident-desk/threat-text';
import { renderAvatar } from './avatar';
import type { TicketView } from './ticket-view';

/** Statuses an agent can pick in the workspace; `new` only while the ticket still is. */
export const AGENT_STATUSES = ['open', 'pending', 'hold', 'solved'] as const;

function fieldText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Who asked, above the properties, as the workspace shows it (when the name is known). */
function renderRequester(view: TicketView): string {
  const { requester_id: id } = view.ticket;
  const name = id != null ? view.authors.get(id) : undefined;
  return name
    ? `<div class="property"><span class="property-label">Requester</span>` +
        `<span class="property-value">${renderAvatar(name, 'small')}${escapeHtml(name)}</span></div>`
    : '';
}

/**
 * The ticket's edit form, as the agent workspace's: custom fields and tags in the properties
 * column, a public reply or internal note with attachments in the composer, the status and
 * Submit in the bar below. Each field carries the value it was rendered with
 * (`was_*`), so Submit sends only what the agent changed and never undoes a change made meanwhile.
 * `formToken` ties the post to this page (the workspace's CSRF protection).
 */
export function renderTicketForm(view: TicketView, action: string, formToken: string): string {
  const { ticket, fields, options } = view;
  const status = ticket.status ?? 'new';
  const customFields = ticket.custom_fields
    .map((f) => {
      const title = fields.get(f.id) ?? `Field ${f.id}`;
      const raw = fieldText(f.value);
      const value = escapeHtml(raw);
      const choices = options?.get(f.id);
      // A drop-down is a select of its options by name (and "-" for none), as in Zendesk.
      const control = choices
        ? `<select name="field_${f.id}" data-field-id="${f.id}"><option value="">-</option>` +
          [...choices]
            .map(
              ([optionValue, name]) =>
                `<option value="${escapeHtml(optionValue)}"${optionValue === raw ? ' selected' : ''}>${escapeHtml(name)}</option>`,
            )
            .join('') +
          `</select>`
        : `<input type="text" name="field_${f.id}" value="${value}" data-field-id="${f.id}">`;
      return (
        `<label class="form-field">${escapeHtml(title)}${control}</label>` +
        `<input type="hidden" name="was_field_${f.id}" value="${value}">`
      );
    })
    .join('');
  const removableTags = ticket.tags
    .map(
      (t) =>
        `<label class="remove-tag"><input type="checkbox" name="remove_tag" value="${escapeHtml(t)}"> ` +
        `${escapeHtml(t)}</label>`,
    )
    .join('');
  const statuses = [...(status === 'new' ? ['new'] : []), ...AGENT_STATUSES]
    .map((s) => `<option value="${s}"${s === status ? ' selected' : ''}>${s}</option>`)
    .join('');
  return (
    `<form id="ticket-form" method="post" action="${escapeHtml(action)}" enctype="multipart/form-data">` +
    `<input type="hidden" name="form_token" value="${escapeHtml(formToken)}">` +
    `<h2>Edit ticket</h2>` +
    `<div class="form-properties">${renderRequester(view)}` +
    `<fieldset><legend>Fields</legend>${customFields || '<p>No custom fields.</p>'}</fieldset>` +
    `<fieldset><legend>Tags</legend>` +
    (removableTags ? `<div id="remove-tags">Remove: ${removableTags}</div>` : '') +
    `<label class="form-field">Add tags (space or comma separated)` +
    `<input type="text" name="add_tags" id="add-tags" autocomplete="off"></label></fieldset></div>` +
    `<fieldset class="composer"><legend>Comment</legend>` +
    `<div class="composer-kind"><label><input type="radio" name="comment_kind" value="public" checked> Public reply</label> ` +
    `<label><input type="radio" name="comment_kind" value="internal"> Internal note</label></div>` +
    `<textarea name="comment_body" id="comment-body" rows="3" aria-label="Comment"></textarea>` +
    `<label class="form-field">Attachments<input type="file" name="attachments" id="comment-attachments" multiple></label>` +
    `</fieldset>` +
    `<div class="form-submit"><label>Status <select name="status" id="ticket-status-select">${statuses}</select></label>` +
    `<input type="hidden" name="was_status" value="${escapeHtml(status)}">` +
    `<button type="submit" id="ticket-submit">Submit</button></div>` +
    `<p id="ticket-save-error" role="alert" hidden></p>` +
    `</form>`
  );
}
