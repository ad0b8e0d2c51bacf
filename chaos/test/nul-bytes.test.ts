// NUL bytes in the values the connector looks up in its database. PostgreSQL text cannot hold a
// NUL, so a lookup with one fails unless the value is checked first; an unauthenticated caller
// must get a 4xx, never a 500. The fuzz meets NULs only when its generators happen to make one;
// these cases make sure every looked-up value is tried with one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '@incident-desk/incident-api';
import { findingsRecorder } from '../src/findings';
import { waitForQuiet } from '../src/quiet';
import { backends, startChaosStack, type ChaosStack } from '../src/stack';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe.each(backends)('NUL bytes in looked-up values on %s', (backend) => {
  let stack: ChaosStack;
  const findings = findingsRecorder(`nul-bytes-${backend}`);

  beforeAll(async () => {
    stack = await startChaosStack(backend);
    await waitForQuiet(stack);
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  async function refused(property: string, test: string, send: () => Promise<Response>) {
    const before = await stack.counts();
    const response = await send();
    const body = await response.text();
    const ok = response.status >= 400 && response.status < 500;
    findings.record({
      property,
      backend,
      test,
      ok,
      detail: `${response.status} ${body.slice(0, 100)}`,
    });
    expect(await stack.counts()).toEqual(before);
    expect(response.status, body).toBeGreaterThanOrEqual(400);
    expect(response.status, body).toBeLessThan(500);
  }

  // The value reaches a database lookup only once its shape is checked (state, receiver id, the
  // unverified subdomain claim): PostgreSQL text refuses a NUL, which used to answer 500.
  it('refuses an OAuth callback whose state holds a NUL byte with a 4xx', () =>
    refused(
      'NUL in the OAuth state answered 4xx',
      'refuses an OAuth callback whose state holds a NUL byte with a 4xx',
      () => fetch(`${stack.url}/oauth/callback?state=ab%00cd&code=x`),
    ));

  it('refuses an incident delivery whose subscription holds a NUL byte with a 4xx', () => {
    const body = JSON.stringify({ id: 'evt_nul', event: 'incident.renamed', data: {} });
    const [subscription] = stack.a.subscriptionIds;
    return refused(
      'NUL in the incident subscription answered 4xx',
      'refuses an incident delivery whose subscription holds a NUL byte with a 4xx',
      () =>
        fetch(`${stack.url}/webhooks/incident?subscription=${subscription}%00`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...signWebhook({ secret: stack.a.incidentSecrets.get(subscription!)!, body }),
          },
          body,
        }),
    );
  });

  it('refuses a sidebar token whose subdomain claim holds a NUL byte with a 401', () => {
    const token = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ subdomain: 'de\u0000mo', ticket_id: 1, exp: 9_999_999_999 })}.c2ln`;
    return refused(
      'NUL in the sidebar token subdomain answered 4xx',
      'refuses a sidebar token whose subdomain claim holds a NUL byte with a 401',
      () =>
        fetch(`${stack.url}/sidebar/tickets/1`, {
          headers: { authorization: `Bearer ${token}` },
        }),
    );
  });

  it('refuses an install and a Zendesk delivery naming a NUL byte with a 4xx', async () => {
    await refused(
      'NUL in the install subdomain answered 4xx',
      'refuses an install and a Zendesk delivery naming a NUL byte with a 4xx',
      () => fetch(`${stack.url}/install?subdomain=de%00mo`, { redirect: 'manual' }),
    );
    await refused(
      'NUL in the Zendesk delivery account answered 4xx',
      'refuses an install and a Zendesk delivery naming a NUL byte with a 4xx',
      () =>
        fetch(`${stack.url}/ticketing/webhook?account=%00`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        }),
    );
  });
});
