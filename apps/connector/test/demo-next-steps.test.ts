import { describe, expect, it } from 'vitest';
import { demoNextSteps } from '../src/demo/run-demo';

describe('the "Demo ready" walk-through', () => {
  const text = demoNextSteps(
    {
      zendeskSandboxUrl: 'http://localhost:9789',
      incidentSandboxUrl: 'http://localhost:9788',
      subdomain: 'demo',
      incidentApiKey: 'k',
      incidentClientId: 'cl_demo_parent',
      incidentSubClientIds: [],
    },
    'http://localhost:9787',
  );

  it('starts with the line e2e set-up waits for and walks the loop through the browser pages at their real addresses', () => {
    expect(text.split('\n')[0]).toBe('Demo ready. Play the whole loop in the browser:');
    expect(text).toContain('http://localhost:9789/hc/requests/new');
    expect(text).toContain('http://localhost:9789/agent/tickets/1');
    expect(text).toContain('http://localhost:9789/agent/tickets)');
    // the request just submitted is opened from the form's own link
    expect(text).toContain('Open it in the agent workspace');
    expect(text).toContain('http://localhost:9788/_sandbox/console/');
    expect(text).toContain('http://localhost:9787/admin/');
    expect(text).toContain('cl_demo_parent');
    for (const step of [
      'incident_submit',
      'Report for takedown',
      'approval_required',
      'Approve takedown',
    ])
      expect(text).toContain(step);
  });

  it('needs no curl or control API call', () => {
    expect(text).not.toMatch(/curl|\/_sandbox\/incidents/);
  });
});
