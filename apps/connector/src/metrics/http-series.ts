// The series of what the connector answers: HTTP requests, webhook verdicts, refused connections.
import { Counter, Histogram, type Registry } from 'prom-client';
import { PREFIX, type ConnectorMetrics } from './metric-types';

export function httpSeries(
  registry: Registry,
): Pick<ConnectorMetrics, 'httpRequest' | 'webhookVerdict' | 'connectionRefused'> {
  const httpRequests = new Counter({
    name: `${PREFIX}http_requests_total`,
    help: 'HTTP requests answered, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'Time to answer an HTTP request, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const webhookVerdicts = new Counter({
    name: `${PREFIX}webhook_deliveries_total`,
    help: 'Webhook deliveries by receiver and verdict (accepted, duplicate, or the refusal reason).',
    labelNames: ['receiver', 'verdict'] as const,
    registers: [registry],
  });
  const refusedConnections = new Counter({
    name: `${PREFIX}http_connections_refused_total`,
    help: 'TCP connections refused at a cap: total_cap (HTTP_MAX_CONNECTIONS) or client_cap (per client address).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  return {
    httpRequest(labels, seconds) {
      const values = { method: labels.method, route: labels.route, status: String(labels.status) };
      httpRequests.inc(values);
      httpDuration.observe(values, seconds);
    },
    webhookVerdict: (receiver, verdict) => webhookVerdicts.inc({ receiver, verdict }),
    connectionRefused: (reason) => refusedConnections.inc({ reason }),
  };
}
