// The soak's fault rates as standing rules in both sandboxes, drawn per request: a Zendesk request
// answers 5xx (500, 502 or 503) at one rate and loses its connection at another, an incident-service
// request answers 503 at a third. The sandboxes count the hits, and Zendesk's sandbox counts every
// request, so the report can show the rate the connector actually met.
import type { ChaosStack } from './stack';
import { controlCall as call } from './sandbox-access';

export interface FaultRates {
  zendesk5xx: number;
  zendeskDrop: number;
  incident5xx: number;
}

export interface StandingFaultFigures {
  rates: FaultRates;
  zendeskRequests: number;
  zendesk5xx: number;
  zendeskDropped: number;
  incident5xx: number;
}

interface ZendeskFault {
  rule: { kind: string };
  hits: number;
}
interface IncidentFault {
  id: string;
  hits: number;
}

export async function installStandingFaults(
  stack: ChaosStack,
  rates: FaultRates,
  subdomains: string[],
): Promise<{ figures(): Promise<StandingFaultFigures> }> {
  const zendesk = `${stack.zendeskUrl}/_sandbox`;
  const incident = `${stack.incidentUrl}/_sandbox`;
  for (const subdomain of subdomains)
    await call(`${zendesk}/accounts/${subdomain}/api-requests`, 'DELETE');
  const zendeskIds: number[] = [];
  const statuses = [500, 502, 503];
  for (const status of statuses) {
    const { fault } = await call<{ fault: { id: number } }>(`${zendesk}/faults`, 'POST', {
      path: '/api/v2/*',
      kind: 'error',
      status,
      rate: rates.zendesk5xx / statuses.length,
    });
    zendeskIds.push(fault.id);
  }
  const { fault: drop } = await call<{ fault: { id: number } }>(`${zendesk}/faults`, 'POST', {
    path: '/api/v2/*',
    kind: 'drop',
    rate: rates.zendeskDrop,
  });
  zendeskIds.push(drop.id);
  const incident5xx = await call<{ id: string }>(`${incident}/faults`, 'POST', {
    path: '/v1/*',
    kind: 'status',
    status: 503,
    rate: rates.incident5xx,
  });

  return {
    async figures() {
      const { faults } = await call<{ faults: (ZendeskFault & { id: number })[] }>(
        `${zendesk}/faults`,
        'GET',
      );
      const standing = faults.filter((f) => zendeskIds.includes(f.id));
      const hitsOf = (kind: string) =>
        standing.filter((f) => f.rule.kind === kind).reduce((sum, f) => sum + f.hits, 0);
      const incidentFaults = await call<{ data: IncidentFault[] }>(`${incident}/faults`, 'GET');
      let zendeskRequests = 0;
      for (const subdomain of subdomains) {
        zendeskRequests += (
          await call<{ total: number }>(`${zendesk}/accounts/${subdomain}/api-requests`, 'GET')
        ).total;
      }
      return {
        rates,
        zendeskRequests,
        zendesk5xx: hitsOf('error'),
        zendeskDropped: hitsOf('drop'),
        incident5xx: incidentFaults.data.find((f) => f.id === incident5xx.id)?.hits ?? 0,
      };
    },
  };
}
