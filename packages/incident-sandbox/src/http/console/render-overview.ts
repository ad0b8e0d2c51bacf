import { statusLabel } from '@incident-desk/incident-api';
import { ANALYST_TRANSITIONS } from '../../domain/transitions';
import type { DeliveryRecord, IncidentRecord, SandboxState } from '../../state/model';
import { consolePage, esc } from './console-html';

function credits(value: number | 'unlimited' | null): string {
  return value === null ? 'not on a credit plan' : String(value);
}

export function renderDeliveries(deliveries: DeliveryRecord[]): string {
  if (deliveries.length === 0) return '<p>No webhook deliveries yet.</p>';
  const rows = deliveries
    .map((d) => {
      const last = d.attempts.at(-1);
      const result = last
        ? last.error
          ? `error: ${last.error}`
          : `HTTP ${last.status ?? '?'}${last.response ? ` ${last.response}` : ''}`
        : 'not tried yet';
      return (
        esc`<tr class="delivery" data-delivery-id="${d.id}"><td>${d.createdAt}</td><td>${d.event}</td><td>${d.incidentId ?? ''}</td>` +
        esc`<td class="${d.state}">${d.state}</td><td>${d.attempts.length}</td><td>${result}</td></tr>`
      );
    })
    .join('');
  return `<table><thead><tr><th>Created</th><th>Event</th><th>Incident</th><th>State</th><th>Attempts</th><th>Last result</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** Buttons for the moves allowed from the incident's status; action_required (it needs a reason) links to its page. */
function quickMoves(incident: IncidentRecord): string {
  const page = `/_sandbox/console/incidents/${encodeURIComponent(incident.id)}`;
  const buttons = ANALYST_TRANSITIONS[incident.status]
    .map((s) =>
      s === 'action_required'
        ? esc`<a href="${page}#action-required-form">action_required…</a>`
        : esc`<button type="submit" name="status" value="${s}" data-move="${s}" title="${s}">${statusLabel(s)}</button>`,
    )
    .join(' ');
  return (
    esc`<form method="post" action="${page}/advance" class="quick-moves">` +
    `<input type="hidden" name="back" value="overview">${buttons}</form>`
  );
}

/** Every client with its incidents and credits, the transition graph, webhooks and recent deliveries. */
export function renderOverview(state: SandboxState): string {
  const graph = Object.entries(ANALYST_TRANSITIONS)
    .map(([from, to]) => esc`<tr><td>${from}</td><td>${to.join(', ')}</td></tr>`)
    .join('');
  const clients = state.clients
    .map((client) => {
      const incidents = state.incidents
        .filter((i) => i.clientId === client.id)
        .sort((a, b) => (a.timestamp < b.timestamp ? 1 : -1))
        .map(
          (i) =>
            esc`<tr class="incident" data-incident-ref="${i.ref}"><td><a href="/_sandbox/console/incidents/${encodeURIComponent(i.id)}">${i.ref}</a></td>` +
            esc`<td>${i.subject}</td><td>${i.incidentType}</td><td><span class="status">${i.status}</span></td>` +
            esc`<td>${i.lastHistoryUpdateTimestamp ?? i.timestamp}</td>` +
            `<td>${quickMoves(i)}</td></tr>`,
        )
        .join('');
      return (
        esc`<section class="client" id="client-${client.id}"><h2>${client.name} <small>${client.id}</small></h2>` +
        esc`<p>Credits: <strong class="credits">${credits(client.credits)}</strong>${client.creditsExpireAt ? ` (expire ${client.creditsExpireAt})` : ''}` +
        esc`${client.approvalConsumesCredit ? ', an approval uses one' : ''}</p>` +
        esc`<form method="post" action="/_sandbox/console/clients/${encodeURIComponent(client.id)}/credits">` +
        `<label>Set credits <input name="credits" size="8" placeholder="number, unlimited or empty"></label> <button type="submit">Save</button></form>` +
        (incidents
          ? `<table><thead><tr><th>Incident</th><th>Subject</th><th>Type</th><th>Status</th><th>Last update</th><th>Move to</th></tr></thead><tbody>${incidents}</tbody></table>`
          : '<p>No incidents.</p>') +
        `</section>`
      );
    })
    .join('');
  const webhooks = state.webhooks
    .map(
      (w) =>
        esc`<tr><td>${w.clientId}</td><td>${w.url}</td><td>${w.events.join(', ')}</td><td>${w.active ? 'active' : 'inactive'}</td></tr>`,
    )
    .join('');
  const recent = [...state.deliveries].reverse().slice(0, 50);
  return consolePage(
    'Analyst console',
    `<h1>Analyst console</h1>` +
      `<p>Incidents of each client; open one to move it as an analyst would. Every change emits the webhooks a real analyst's would.</p>` +
      clients +
      `<section id="transition-graph"><h2>Transition graph (the sandbox's analyst model)</h2>` +
      `<table><thead><tr><th>From</th><th>Allowed next statuses</th></tr></thead><tbody>${graph}</tbody></table></section>` +
      `<section id="webhooks"><h2>Webhook subscriptions</h2>` +
      (webhooks
        ? `<table><thead><tr><th>Client</th><th>URL</th><th>Events</th><th>State</th></tr></thead><tbody>${webhooks}</tbody></table>`
        : '<p>None yet: the connector subscribes when an account is set up.</p>') +
      `</section><section id="deliveries"><h2>Recent webhook deliveries</h2>${renderDeliveries(recent)}</section>`,
  );
}
