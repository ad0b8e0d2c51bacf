import { statusLabel } from '@incident-desk/incident-api';
import { ATTEMPT_OUTCOMES } from '../../domain/vocabulary';
import { ANALYST_TRANSITIONS } from '../../domain/transitions';
import type { ClientRecord, DeliveryRecord, IncidentRecord } from '../../state/model';
import { consolePage, esc } from './console-html';
import { renderDeliveries } from './render-overview';

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** One incident as an analyst works it: status moves allowed from here, and every record it holds. */
export function renderIncident(
  incident: IncidentRecord,
  client: ClientRecord | undefined,
  deliveries: DeliveryRecord[],
): string {
  const base = `/_sandbox/console/incidents/${encodeURIComponent(incident.id)}`;
  const allowed = ANALYST_TRANSITIONS[incident.status];
  const moves = allowed
    .filter((s) => s !== 'action_required')
    .map(
      (s) =>
        esc`<button type="submit" name="status" value="${s}" id="advance-${s}">${statusLabel(s)} (${s})</button>`,
    )
    .join(' ');
  const actionRequired = allowed.includes('action_required')
    ? esc`<form method="post" action="${base}/advance" id="action-required-form"><input type="hidden" name="status" value="action_required">` +
      `<label>Reason (what the client must do) <input name="waitForClient" id="action-required-reason" required size="50"></label> ` +
      `<button type="submit" id="advance-action_required">Require action</button></form>`
    : '';
  const history = incident.history
    .map(
      (h) =>
        esc`<li><time>${h.timestamp}</time> ${h.author?.name ? `${h.author.name}: ` : ''}${h.message}</li>`,
    )
    .join('');
  const blocklists = incident.blocklists
    .map(
      (b) =>
        esc`<tr><td>${b.authority}</td><td>${b.type}</td><td>${b.status}</td><td>${b.listedAt ?? ''}</td><td>${b.link ?? ''}</td></tr>`,
    )
    .join('');
  const snapshots = incident.snapshots
    .map(
      (s) =>
        esc`<tr><td>${s.timestamp}</td><td>${s.type}</td><td>${s.description}</td>` +
        esc`<td><pre>${s.insights ? json(s.insights) : ''}</pre></td></tr>`,
    )
    .join('');
  const attempts = incident.takedownAttempts
    .map(
      (a) =>
        esc`<tr><td>${a.startedAt ?? ''}</td><td>${a.resolvedAt ?? ''}</td><td>${a.outcome ?? 'open'}</td></tr>`,
    )
    .join('');
  const outcomes = ['', ...ATTEMPT_OUTCOMES]
    .map((o) => esc`<option value="${o}">${o || 'open (no outcome yet)'}</option>`)
    .join('');
  // the report's comment is the reported ticket's description, in its requester's words: the
  // agent who reported it only sent it
  const comments = incident.comments
    .map((c, index) =>
      index === 0 && c.timestamp === incident.timestamp
        ? esc`<li><time>${c.timestamp}</time> description sent with the report (by ${c.author}): ${c.comment}</li>`
        : esc`<li><time>${c.timestamp}</time> ${c.author}: ${c.comment}</li>`,
    )
    .join('');
  const attachments = incident.attachments
    .map((a) => esc`<li>${a.fileName} (${a.contentType}, ${a.size} bytes)</li>`)
    .join('');

  return consolePage(
    incident.ref,
    esc`<h1 id="incident-subject">${incident.subject}</h1>` +
      esc`<p>${incident.ref} · ${incident.id} · client ${client?.name ?? incident.clientId} · ${incident.incidentType} · ` +
      esc`requested ${incident.requestedAction} · status <strong>${statusLabel(incident.status)}</strong> (<span class="status" id="incident-status">${incident.status}</span>)</p>` +
      esc`<p>Registrar: ${incident.registrar?.name ?? 'unknown'} · Hosting: ${incident.hostingProvider ?? 'unknown'} · Class: ${incident.incidentClass}` +
      esc` · Credits of the client: ${client ? (client.credits ?? 'not on a credit plan') : '?'}</p>` +
      `<fieldset><legend>Move as an analyst</legend>` +
      esc`<form method="post" action="${base}/advance" id="move-form"><label>History message (optional) <input name="message" size="50"></label>` +
      esc`<p>Allowed next statuses from ${incident.status}: ` +
      (moves || 'none') +
      `</p></form>${actionRequired}</fieldset>` +
      `<fieldset><legend>History (newest first)</legend>` +
      esc`<form method="post" action="${base}/history" id="history-form"><label>Message <input name="message" id="history-message" required size="60"></label> <button type="submit">Add to history</button></form>` +
      `<ul id="incident-history">${history}</ul></fieldset>` +
      `<fieldset><legend>Blocklist listings</legend>` +
      `<table><thead><tr><th>Authority</th><th>Type</th><th>Status</th><th>Listed</th><th>Link</th></tr></thead><tbody id="incident-blocklists">${blocklists}</tbody></table>` +
      esc`<form method="post" action="${base}/blocklists" id="blocklist-form"><label>Authority <input name="authority" required value="Google Safe Browsing"></label> ` +
      `<select name="type"><option value="warning-banner">warning-banner</option><option value="blocklist">blocklist</option></select> ` +
      `<select name="status"><option value="listed">listed</option><option value="submitted">submitted</option></select> ` +
      `<label>Link <input name="link"></label> <button type="submit">Add listing</button></form></fieldset>` +
      `<fieldset><legend>Snapshots and insights</legend>` +
      `<table><thead><tr><th>Captured</th><th>Type</th><th>Description</th><th>Insights</th></tr></thead><tbody id="incident-snapshots">${snapshots}</tbody></table>` +
      esc`<form method="post" action="${base}/snapshots" id="snapshot-form"><label>Description <input name="description" value="Analyst capture"></label><br>` +
      `<label>Insights (JSON object, optional)<br><textarea name="insights" rows="4" cols="70" placeholder='{"hosting": {"provider": "Example Hosting"}}'></textarea></label><br>` +
      `<button type="submit">Add snapshot</button></form></fieldset>` +
      `<fieldset><legend>Takedown attempts (oldest first)</legend>` +
      `<table><thead><tr><th>Started</th><th>Resolved</th><th>Outcome</th></tr></thead><tbody id="incident-attempts">${attempts}</tbody></table>` +
      esc`<form method="post" action="${base}/takedown-attempts" id="attempt-form"><label>Outcome <select name="outcome">` +
      outcomes +
      `</select></label> <button type="submit">Record an attempt started now</button></form></fieldset>` +
      `<fieldset><legend>From the client</legend><h3>Comments</h3><ul>${comments || '<li>none</li>'}</ul>` +
      `<h3>Evidence</h3><ul>${attachments || '<li>none</li>'}</ul></fieldset>` +
      `<section><h2>Webhook deliveries of this incident</h2>${renderDeliveries([...deliveries].reverse())}</section>`,
  );
}

/** A refused console action: its message, the allowed next statuses of a 409, and the way back. */
export function renderConsoleError(
  status: number,
  message: string,
  back: string,
  allowed?: readonly string[],
): string {
  return consolePage(
    `Error ${status}`,
    esc`<h1>Error ${status}</h1><p class="error" id="console-error">${message}</p>` +
      (allowed
        ? esc`<p id="allowed-statuses">Allowed next statuses: ${allowed.join(', ') || 'none'}</p>`
        : '') +
      esc`<p><a href="${back}">Back</a></p>`,
  );
}
