// The series of the connector's calls to Zendesk and the incident service, and of its Zendesk
// token renewals.
import { Counter, Histogram, type LabelValues, type Registry } from 'prom-client';
import { PREFIX, type ConnectorMetrics } from './metric-types';

export function upstreamSeries(
  registry: Registry,
): Pick<ConnectorMetrics, 'zendeskCall' | 'incidentCall' | 'tokenRefresh'> {
  const upstreamCalls = new Counter({
    name: `${PREFIX}upstream_requests_total`,
    help: 'Attempts of calls to Zendesk and the incident service, by endpoint and status; retry="true" when another attempt followed (429s, 5xx, a refreshed token).',
    labelNames: ['service', 'endpoint', 'method', 'status', 'retry'] as const,
    registers: [registry],
  });
  const upstreamDuration = new Histogram({
    name: `${PREFIX}upstream_request_duration_seconds`,
    help: 'Time of one attempt of a call to Zendesk or the incident service.',
    labelNames: ['service', 'endpoint'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const tokenRefreshes = new Counter({
    name: `${PREFIX}zendesk_token_refreshes_total`,
    help: 'Zendesk access token renewals by outcome.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });

  const upstream = (
    service: 'zendesk' | 'incident',
    endpoint: string,
    call: { method: string; status: number | string; retry: boolean; durationMs: number },
  ) => {
    const labels: LabelValues<'service' | 'endpoint' | 'method' | 'status' | 'retry'> = {
      service,
      endpoint,
      method: call.method,
      status: String(call.status),
      retry: String(call.retry),
    };
    upstreamCalls.inc(labels);
    upstreamDuration.observe({ service, endpoint }, call.durationMs / 1000);
  };

  return {
    zendeskCall: (call) => upstream('zendesk', call.endpoint, call),
    incidentCall: (call) => upstream('incident', call.operation, call),
    tokenRefresh: (outcome) => tokenRefreshes.inc({ outcome }),
  };
}
