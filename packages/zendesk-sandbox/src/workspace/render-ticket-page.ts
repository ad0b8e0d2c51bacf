import { escapeHtml } from '@incident-desk/threat-text';
import { jsonForScriptTag } from './json-for-script-tag';
import { initialsOf, renderAvatar } from './avatar';
import { renderTicketForm } from './ticket-form';
import type { TicketView } from './ticket-view';
import type { TApiTicket, TApiTicketField } from './support-api';
import { WORKSPACE_STYLE } from './workspace-style';

export type { TicketView } from './ticket-view';

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

/** `Nov 26, 21:14` in UTC (the page must read the same wherever it is rendered); else as given. */
function shownTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return iso;
  return time.toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    timeZone: 'UTC',
  });
}

/** A status as a class name: Zendesk's colour per status (`status-open`, `status-pending`...). */
function statusClass(status: string | null | undefined): string {
  return `status-${(status ?? 'new').replace(/[^a-z]/gi, '').toLowerCase()}`;
}

/** The ticket panel; also re-sent over the event stream when the ticket changes. Every value is escaped. */
export function renderTicketPanel({
  ticket,
  comments,
  authors,
  fields,
  options,
}: TicketView): string {
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
        renderAvatar(author) +
        `<div class="comment-main"><div class="comment-meta"><span class="author">${escapeHtml(author)}</span>` +
        `${c.public ? '' : ' <span class="note">Internal note</span>'}` +
        ` <time datetime="${escapeHtml(c.created_at ?? '')}">${escapeHtml(shownTime(c.created_at))}</time></div>` +
        `<div class="comment-body">${escapeHtml(c.plain_body ?? c.body ?? '')}</div>` +
        (attachments ? `<ul class="attachments">${attachments}</ul>` : '') +
        `</div></li>`
      );
    })
    .join('');
  return (
    `<header class="ticket-header"><h1 id="ticket-subject">${escapeHtml(ticket.subject ?? '')}</h1>` +
    `<div class="ticket-meta">#${ticket.id} <span id="ticket-status" class="status ${statusClass(ticket.status)}">` +
    `${escapeHtml(ticket.status ?? '')}</span>` +
    `<section class="ticket-tags"><h2>Tags</h2><ul id="ticket-tags">${tags}</ul></section></div></header>` +
    `<section class="conversation"><h2>Conversation</h2><ol id="ticket-conversation">${conversation}</ol></section>` +
    `<section class="ticket-fields"><h2>Fields</h2><dl id="ticket-custom-fields">${customFields}</dl></section>`
  );
}

export interface PageInput {
  view: TicketView;
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
        /** The app's name and small logo (same origin as the page, or none) for its header. */
        name: string;
        logoSrc: string | null;
        iframeSrc: string;
        /** signedUrls: the iframe's first request is this form POST, not a GET of the src. */
        signedToken: string | null;
        hostConfig: unknown;
      }
    | { kind: 'message'; text: string };
}

/** The tab of the open ticket in the top bar, as Zendesk shows it: status, subject, number. */
function renderTicketTab(ticket: TApiTicket): string {
  return (
    // a button: host.js switches back to the ticket from Home (app.activated)
    `<div class="tabs"><button type="button" id="ticket-tab" class="tab active" aria-pressed="true">` +
    `<span class="status ${statusClass(ticket.status)}" aria-hidden="true">` +
    `${escapeHtml((ticket.status ?? 'new').slice(0, 1))}</span>` +
    `<span class="tab-title">${escapeHtml(ticket.subject ?? '')}<small>#${ticket.id}</small></span>` +
    `<span class="tab-close" aria-hidden="true"></span></button>` +
    `<span class="tab-add" aria-hidden="true">+ Add</span></div>`
  );
}

/** The product bar on the left: the ticket list is its one working link, the rest is the look. */
function renderNav(listHref: string): string {
  const item = (name: string) => `<span class="nav-item nav-${name}" aria-hidden="true"></span>`;
  return (
    `<nav id="workspace-nav" aria-label="Workspace"><span class="nav-brand" aria-hidden="true"></span>` +
    // host.js takes the agent away from the ticket tab to Home (app.deactivated)
    `<button type="button" id="workspace-home" class="nav-item nav-home"><span class="visually-hidden">Home</span></button>` +
    `<a id="all-tickets" href="${escapeHtml(listHref)}"><span class="visually-hidden">All tickets</span></a>` +
    item('customers') +
    item('organizations') +
    item('reporting') +
    item('admin') +
    item('products') +
    `</nav>`
  );
}

function renderAppHeader(name: string, logoSrc: string | null): string {
  const logo = logoSrc
    ? `<img class="app-logo" src="${escapeHtml(logoSrc)}" alt="">`
    : `<span class="app-logo" aria-hidden="true">${escapeHtml(initialsOf(name).slice(0, 1))}</span>`;
  return (
    `<header class="app-header">${logo}<span class="app-name">${escapeHtml(name)}</span>` +
    `<span class="app-collapse" aria-hidden="true"></span></header>`
  );
}

export function renderTicketPage({
  view,
  agent,
  subdomain,
  assetsBase,
  sidebar,
  form,
  listHref,
}: PageInput): string {
  const frame =
    sidebar.kind !== 'app'
      ? ''
      : sidebar.signedToken === null
        ? // host.js loads it once it listens, so a fast (cached) app's handshake is never missed
          `<iframe id="zaf-app-frame" title="App" data-src="${escapeHtml(sidebar.iframeSrc)}"></iframe>`
        : // host.js submits the form into the named iframe
          `<iframe id="zaf-app-frame" name="zaf-app-frame" title="App"></iframe>` +
          `<form id="zaf-signed-form" method="post" action="${escapeHtml(sidebar.iframeSrc)}" target="zaf-app-frame" hidden>` +
          `<input type="hidden" name="token" value="${escapeHtml(sidebar.signedToken)}"></form>`;
  const apps =
    sidebar.kind === 'app'
      ? `<section class="app-section" aria-label="${escapeHtml(sidebar.name)}">` +
        renderAppHeader(sidebar.name, sidebar.logoSrc) +
        frame +
        `</section>` +
        `<script type="application/json" id="zaf-host-config">${jsonForScriptTag(sidebar.hostConfig)}</script>` +
        `<script src="${escapeHtml(assetsBase)}/host.js"></script>`
      : `<p id="zaf-app-message">${escapeHtml(sidebar.text)}</p>`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">` +
    `<title>${escapeHtml(`#${view.ticket.id} ${view.ticket.subject ?? ''}`)} - Agent workspace (sandbox)</title>` +
    `<style>${WORKSPACE_STYLE}</style></head><body>` +
    renderNav(listHref) +
    `<div id="workspace"><header id="workspace-topbar">${renderTicketTab(view.ticket)}` +
    `<div class="topbar-tools"><span class="tool tool-search" aria-hidden="true"></span>` +
    `<span class="tool tool-bell" aria-hidden="true"></span><span class="tool tool-help" aria-hidden="true"></span>` +
    renderAvatar(agent.name, 'small') +
    `<p id="workspace-agent">${escapeHtml(agent.name)} (${escapeHtml(agent.role)}) · ${escapeHtml(subdomain)}</p>` +
    `</div></header>` +
    `<section id="home-pane" hidden><h1>Home</h1><p>The ticket stays open in its tab above.</p>` +
    `<p><a href="${escapeHtml(listHref)}">All tickets</a></p></section>` +
    `<div id="workspace-body"><main id="ticket-workspace">` +
    `<div id="ticket-panel">${renderTicketPanel(view)}</div>` +
    `${renderTicketForm(view, form.action, form.token)}</main>` +
    `<aside id="apps-panel" aria-label="Apps"><div class="context-tabs" aria-hidden="true">` +
    `<span class="ctx-user"></span><span class="ctx-knowledge"></span><span class="ctx-apps"></span></div>` +
    `${apps}</aside></div></div>` +
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
