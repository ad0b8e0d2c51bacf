/* eslint-disable @typescript-eslint/no-explicit-any -- control bodies are asserted field by field */
import { describe, expect, it } from 'vitest';
import { startReceiver, startSandbox, type Harness } from './helpers';

// The analyst console at /_sandbox/console/: plain HTML forms over the control API's operations.

function post(
  h: Harness,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return fetch(`${h.url}/_sandbox/console${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

const page = async (h: Harness, path: string) => {
  const res = await fetch(`${h.url}/_sandbox/console${path}`);
  return { status: res.status, html: await res.text() };
};

async function incidentIn(h: Harness, status: string): Promise<any> {
  return (await h.control('GET', '/state')).body.incidents.find((i: any) => i.status === status);
}

describe('analyst console', () => {
  it('lists every client with its incidents, credits, the transition graph and deliveries', async () => {
    const h = await startSandbox();
    const { status, html } = await page(h, '/');
    expect(status).toBe(200);
    expect(html).toContain('Demo Parent Co');
    expect(html).toContain('Demo Retail');
    expect(html).toContain('<strong class="credits">25</strong>');
    expect(html).toContain('<strong class="credits">unlimited</strong>');
    expect(html).toMatch(
      /<tr><td>approval_required<\/td><td>takedown_ready, action_required, closed<\/td><\/tr>/,
    );
    const first = await incidentIn(h, 'case_building');
    expect(html).toContain(`href="/_sandbox/console/incidents/${first.id}"`);
    // a browser opening /_sandbox/ lands on the console; API clients keep the JSON index
    const browser = await fetch(`${h.url}/_sandbox/`, {
      headers: { accept: 'text/html,*/*;q=0.8' },
      redirect: 'manual',
    });
    expect(browser.status).toBe(303);
    expect(browser.headers.get('location')).toBe('/_sandbox/console/');
    expect((await h.control('GET', '/')).body.console).toBe('/_sandbox/console/');
  });

  it('shows buttons for the allowed next statuses only, and moves the incident with the webhooks an analyst move emits', async () => {
    const h = await startSandbox();
    const receiver = await startReceiver();
    await h.api('/v1/webhooks', {
      method: 'POST',
      json: {
        url: receiver.url,
        events: ['incident.status_changed', 'incident.history_created'],
        description: 'all',
      },
    });
    const incident = await incidentIn(h, 'case_building');
    const before = await page(h, `/incidents/${incident.id}`);
    const buttons = [...before.html.matchAll(/id="advance-([a-z_]+)"/g)].map((m) => m[1]);
    expect(buttons.sort()).toEqual(
      [
        'approval_required',
        'takedown_ready',
        'takedown_in_progress',
        'pre_weaponised',
        'blocklisted',
        'action_required',
        'closed',
      ].sort(),
    );
    const res = await post(h, `/incidents/${incident.id}/advance`, {
      status: 'approval_required',
      message: 'Case ready for your approval',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/_sandbox/console/incidents/${incident.id}`);
    const after = (await h.control('GET', `/incidents/${incident.id}`)).body;
    expect(after.status).toBe('approval_required');
    expect(after.history[0]).toMatchObject({
      message: 'Case ready for your approval',
      author: { type: 'analyst', name: 'Console Analyst' },
    });
    await receiver.waitFor(2);
    expect(receiver.received.map((d) => d.body.event).sort()).toEqual([
      'incident.history_created',
      'incident.status_changed',
    ]);
    await h.sandbox.idle();
    const shown = await page(h, `/incidents/${incident.id}`);
    expect(shown.html).toContain(
      '<span class="status" id="incident-status">approval_required</span>',
    );
    // named as the sidebar names it, beside the value the API carries
    expect(shown.html).toContain('status <strong>Approval required</strong>');
    expect(shown.html).toContain('>Takedown ready (takedown_ready)</button>');
    expect(shown.html).toMatch(
      /<td>incident\.status_changed<\/td><td>[^<]*<\/td><td class="delivered">delivered<\/td><td>1<\/td><td>HTTP 200/,
    );
  });

  it("shows a report's comment as the ticket's description it carried, not as the reporting agent's words", async () => {
    const h = await startSandbox();
    const reported = await h.api('/v1/incident/tkd', {
      method: 'POST',
      json: {
        url: 'https://described.example/login',
        reportedBy: 'agent@demo-parent.example',
        comment: 'I got this mail from my bank',
      },
    });
    expect(reported.status).toBe(200);
    const incident = (await h.control('GET', '/state')).body.incidents.find(
      (i: any) => i.ref === reported.body.id,
    );
    const shown = await page(h, `/incidents/${incident.id}`);
    expect(shown.html).toContain(
      'description sent with the report (by agent@demo-parent.example): I got this mail from my bank',
    );
  });

  it('offers the allowed moves beside each incident of the overview, and comes back to it after one', async () => {
    const h = await startSandbox();
    const incident = await incidentIn(h, 'takedown_ready');
    const { html } = await page(h, '/');
    const row =
      new RegExp(`<tr class="incident" data-incident-ref="${incident.ref}">.*?</tr>`).exec(
        html,
      )?.[0] ?? '';
    expect([...row.matchAll(/data-move="([a-z_]+)"/g)].map((m) => m[1])).toEqual([
      'takedown_in_progress',
      'closed',
    ]);
    const res = await post(h, `/incidents/${incident.id}/advance`, {
      status: 'takedown_in_progress',
      back: 'overview',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/_sandbox/console/#client-${incident.clientId}`);
    expect((await h.control('GET', `/incidents/${incident.id}`)).body.status).toBe(
      'takedown_in_progress',
    );
  });

  it('refuses a move off the graph with 409 listing the allowed next statuses, changing nothing', async () => {
    const h = await startSandbox();
    const incident = await incidentIn(h, 'takedown_ready');
    const res = await post(h, `/incidents/${incident.id}/advance`, { status: 'pending_review' });
    expect(res.status).toBe(409);
    const html = await res.text();
    expect(html).toContain(
      'Cannot move incident from takedown_ready to pending_review; allowed next statuses: takedown_in_progress, closed',
    );
    expect(html).toContain(
      '<p id="allowed-statuses">Allowed next statuses: takedown_in_progress, closed</p>',
    );
    expect((await h.control('GET', `/incidents/${incident.id}`)).body.status).toBe(
      'takedown_ready',
    );
  });

  it('moves to action_required with a reason carried by incident.action_required', async () => {
    const h = await startSandbox();
    const receiver = await startReceiver();
    await h.api('/v1/webhooks', {
      method: 'POST',
      json: { url: receiver.url, events: ['incident.action_required'], description: 'ar' },
    });
    const incident = await incidentIn(h, 'approval_required');
    expect(
      (
        await post(h, `/incidents/${incident.id}/advance`, {
          status: 'action_required',
          waitForClient: 'Upload a letter of authorisation',
        })
      ).status,
    ).toBe(303);
    await receiver.waitFor(1);
    expect(receiver.received[0]?.body.data).toMatchObject({
      incidentId: incident.id,
      waitForClient: 'Upload a letter of authorisation',
    });
  });

  it('adds a history message, a blocklist listing, a snapshot with insights and a takedown attempt', async () => {
    const h = await startSandbox();
    const incident = await incidentIn(h, 'takedown_in_progress');
    const id = incident.id as string;
    expect(
      (await post(h, `/incidents/${id}/history`, { message: 'Registrar contacted' })).status,
    ).toBe(303);
    expect(
      (
        await post(h, `/incidents/${id}/blocklists`, {
          authority: 'PhishTank',
          type: 'blocklist',
          status: 'submitted',
        })
      ).status,
    ).toBe(303);
    expect(
      (
        await post(h, `/incidents/${id}/snapshots`, {
          description: 'Login form',
          insights: '{"page":{"title":"Sign in"}}',
        })
      ).status,
    ).toBe(303);
    expect(
      (await post(h, `/incidents/${id}/takedown-attempts`, { outcome: 'success' })).status,
    ).toBe(303);
    const after = (await h.control('GET', `/incidents/${id}`)).body;
    expect(after.history.map((e: any) => e.message)).toEqual(
      expect.arrayContaining(['Registrar contacted', 'Submitted to PhishTank']),
    );
    expect(after.blocklists.at(-1)).toMatchObject({
      authority: 'PhishTank',
      type: 'blocklist',
      status: 'submitted',
      listedAt: null,
    });
    expect(after.snapshots.find((s: any) => s.description === 'Login form')?.insights).toEqual({
      page: { title: 'Sign in' },
    });
    expect(after.takedownAttempts.at(-1)).toMatchObject({
      outcome: 'success',
      resolvedAt: expect.any(String),
    });
    const shown = await page(h, `/incidents/${id}`);
    expect(shown.html).toContain('Registrar contacted');
    expect(shown.html).toContain('&quot;title&quot;: &quot;Sign in&quot;');
  });

  it('sets credits of a client, and answers bad input with 400 and unknown records with 404', async () => {
    const h = await startSandbox();
    expect((await post(h, '/clients/cl_demo_parent/credits', { credits: '3' })).status).toBe(303);
    expect(
      (await h.control('GET', '/state')).body.clients.find((c: any) => c.id === 'cl_demo_parent')
        .credits,
    ).toBe(3);
    expect((await post(h, '/clients/cl_demo_parent/credits', { credits: 'lots' })).status).toBe(
      400,
    );
    expect((await post(h, '/clients/cl_nobody/credits', { credits: '1' })).status).toBe(404);
    const incident = await incidentIn(h, 'case_building');
    const badJson = await post(h, `/incidents/${incident.id}/snapshots`, { insights: '{not json' });
    expect(badJson.status).toBe(400);
    expect(await badJson.text()).toContain('Invalid parameter &#39;insights&#39;: not JSON');
    expect((await post(h, `/incidents/${incident.id}/history`, { message: '  ' })).status).toBe(
      400,
    );
    expect(
      (await post(h, `/incidents/${incident.id}/advance`, { status: 'nonsense' })).status,
    ).toBe(400);
    expect((await page(h, '/incidents/inc_missing')).status).toBe(404);
    expect((await post(h, '/incidents/inc_missing/history', { message: 'x' })).status).toBe(404);
  });

  it('refuses posts from another origin (403)', async () => {
    const h = await startSandbox();
    const incident = await incidentIn(h, 'case_building');
    const res = await post(
      h,
      `/incidents/${incident.id}/history`,
      { message: 'forged' },
      { origin: 'https://evil.example' },
    );
    expect(res.status).toBe(403);
    const fetchMeta = await post(
      h,
      `/incidents/${incident.id}/history`,
      { message: 'forged' },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(fetchMeta.status).toBe(403);
    expect(
      (await h.control('GET', `/incidents/${incident.id}`)).body.history.map((e: any) => e.message),
    ).not.toContain('forged');
  });

  it('escapes hostile subjects, history messages and insights', async () => {
    const h = await startSandbox();
    const hostile = '<img src=x onerror=alert(1)>"\'';
    const created = (
      await h.control('POST', '/incidents', {
        clientId: 'cl_demo_parent',
        incidentType: 'url',
        subject: `https://x.example/${hostile}`,
      })
    ).body;
    expect(created.id).toEqual(expect.any(String));
    await post(h, `/incidents/${created.id}/history`, { message: hostile });
    await post(h, `/incidents/${created.id}/snapshots`, {
      insights: JSON.stringify({ page: { title: hostile } }),
    });
    for (const path of ['/', `/incidents/${created.id}`]) {
      const { html } = await page(h, path);
      expect(html).not.toContain('<img src=x');
      expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    }
  });
});
