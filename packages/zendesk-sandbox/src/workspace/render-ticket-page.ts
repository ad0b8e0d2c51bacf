import { escapeHtml } from '@incident-desk/threat-text';
import { jsonForScriptTag } from './json-for-script-tag';
import { renderTicketForm } from './ticket-form';
import type { TApiComment, TApiTicket, TApiTicketField } from './support-api';

export interface TTicketView {
  ticket: TApiTicket;
  comments: TApiComment[];
  authors: ReadonlyMap<number, string>;
  fields: ReadonlyMap<number, string>;
  /** A drop-down's options by field id (value to name), shown by name as Zendesk shows them. */
  options?: ReadonlyMap<number, ReadonlyMap<string, string>>;
}

function fieldValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function safeHref(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** The ticket panel; also re-sent over the event stream when the ticket changes. Every value is escaped. */
export function renderTicketPanel({
  ticket,
  comments,
  authors,
  fields,
  options,
}: TTicketView): string {
  const tags = ticket.tags.map((t) => `<li class="tag">${escapeHtml(t)}</li>`).join('');
  const customFields = ticket.custom_fields
    .map((f) => {
      const value = fieldValue(f.value);
      const shown = options?.get(f.id)?.get(value) ?? value;
      return (
        `<div class="field" data-field-id="${f.id}"><dt>${escapeHtml(fields.get(f.id) ?? `Field ${f.id}`)}</dt>` +
        `<dd data-value="${escapeHtml(value)}">${escapeHtml(shown)}</dd></div>`
      );
    })
    .join('');
  const conversation = comments
    .map((c) => {
      const author =
        c.author_id != null ? (authors.get(c.author_id) ?? `User ${c.author_id}`) : 'Unknown';
      const attachments = c.attachments
        .map((a) => {
          const href = safeHref(a.content_url);
          const name = escapeHtml(a.file_name ?? 'attachment');
          return href
            ? `<li><a href="${escapeHtml(href)}" rel="noopener noreferrer">${name}</a></li>`
            : `<li>${name}</li>`;
        })
        .join('');
      return (
        `<li class="comment ${c.public ? 'public' : 'internal'}" data-comment-id="${c.id}">` +
        `<div class="comment-meta"><span class="author">${escapeHtml(author)}</span>` +
        `${c.public ? '' : ' <span class="note">Internal note</span>'}` +
        ` <time>${escapeHtml(c.created_at ?? '')}</time></div>` +
        `<div class="comment-body">${escapeHtml(c.plain_body ?? c.body ?? '')}</div>` +
        (attachments ? `<ul class="attachments">${attachments}</ul>` : '') +
        `</li>`
      );
    })
    .join('');
  return (
    `<header><h1 id="ticket-subject">${escapeHtml(ticket.subject ?? '')}</h1>` +
    `<p>#${ticket.id} <span id="ticket-status" class="status">${escapeHtml(ticket.status ?? '')}</span></p></header>` +
    `<section><h2>Tags</h2><ul id="ticket-tags">${tags}</ul></section>` +
    `<section><h2>Fields</h2><dl id="ticket-custom-fields">${customFields}</dl></section>` +
    `<section><h2>Conversation</h2><ol id="ticket-conversation">${conversation}</ol></section>`
  );
}

export interface TPageInput {
  view: TTicketView;
  agent: { name: string; role: string };
  subdomain: string;
  assetsBase: string;
  /** The edit form: where it posts (the page itself) and the page's token. */
  form: { action: string; token: string };
  /** The ticket list of the same agent and account. */
  listHref: string;
  sidebar:
    | {
        kind: 'app';
        iframeSrc: string;
        /** signedUrls: the iframe's first request is this form POST, not a GET of the src. */
        signedToken: string | null;
        hostConfig: unknown;
      }
    | { kind: 'message'; text: string };
}

const STYLE = `
body{font-family:system-ui,sans-serif;margin:0;display:flex;min-height:100vh;color:#2f3941}
main{flex:1;padding:16px 24px;overflow:auto}
aside{width:340px;border-left:1px solid #d8dcde;padding:12px;background:#f8f9f9}
#zaf-app-frame{width:100%;height:300px;border:0;background:#fff}
.tag{display:inline-block;background:#e9ebed;border-radius:4px;padding:2px 6px;margin:2px}
#ticket-tags{padding:0}
#workspace-agent{font-size:12px;color:#68737d;margin:0 0 8px}
.comment{border-bottom:1px solid #e9ebed;padding:8px 0;list-style:none}
.comment.internal{background:#fff6e0}
.comment-body{white-space:pre-wrap}
.note{color:#ad5e18;font-size:12px}
.status{text-transform:uppercase;font-size:12px;background:#1f73b7;color:#fff;padding:2px 6px;border-radius:4px}
.field{display:flex;gap:8px}.field dt{font-weight:600}.field dd{margin:0}
#ticket-form{border-top:1px solid #d8dcde;margin-top:16px;padding-top:8px}
#ticket-form fieldset{border:1px solid #e9ebed;margin:8px 0}
.form-field{display:block;margin:4px 0}.form-field input{display:block;width:100%;max-width:480px}
#comment-body{display:block;width:100%;max-width:640px}
.remove-tag{margin-right:8px}.form-submit{display:flex;gap:12px;align-items:center}
`;

export function renderTicketPage({
  view,
  agent,
  subdomain,
  assetsBase,
  sidebar,
  form,
  listHref,
}: TPageInput): string {
  const frame =
    sidebar.kind !== 'app'
      ? ''
      : sidebar.signedToken === null
        ? `<iframe id="zaf-app-frame" title="App" src="${escapeHtml(sidebar.iframeSrc)}"></iframe>`
        : // host.js submits the form into the named iframe
          `<iframe id="zaf-app-frame" name="zaf-app-frame" title="App"></iframe>` +
          `<form id="zaf-signed-form" method="post" action="${escapeHtml(sidebar.iframeSrc)}" target="zaf-app-frame" hidden>` +
          `<input type="hidden" name="token" value="${escapeHtml(sidebar.signedToken)}"></form>`;
  const aside =
    sidebar.kind === 'app'
      ? frame +
        `<script type="application/json" id="zaf-host-config">${jsonForScriptTag(sidebar.hostConfig)}</script>` +
        `<script src="${escapeHtml(assetsBase)}/host.js"></script>`
      : `<p id="zaf-app-message">${escapeHtml(sidebar.text)}</p>`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">` +
    `<title>${escapeHtml(`#${view.ticket.id} ${view.ticket.subject ?? ''}`)} - Agent workspace (sandbox)</title>` +
    `<style>${STYLE}</style></head><body>` +
    `<main><nav><a id="all-tickets" href="${escapeHtml(listHref)}">All tickets</a></nav>` +
    `<div id="ticket-panel">${renderTicketPanel(view)}</div>` +
    `${renderTicketForm(view, form.action, form.token)}</main>` +
    `<aside id="apps-panel"><p id="workspace-agent">${escapeHtml(agent.name)} (${escapeHtml(agent.role)}) · ` +
    `${escapeHtml(subdomain)}</p>${aside}</aside>` +
    `</body></html>`
  );
}

export function fieldTitles(fields: TApiTicketField[]): Map<number, string> {
  return new Map(fields.map((f) => [f.id, f.title ?? `Field ${f.id}`]));
}

/** The options of each drop-down field, value to name. */
export function fieldOptions(fields: TApiTicketField[]): Map<number, Map<string, string>> {
  return new Map(
    fields
      .filter((f) => (f.custom_field_options ?? []).length > 0)
      .map((f) => [f.id, new Map(f.custom_field_options!.map((o) => [o.value, o.name]))]),
  );
}
