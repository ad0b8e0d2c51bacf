// The connector's Prometheus metrics (prom-client), one registry per connector so in-process
// instances (tests) keep their counts apart. Labels are bounded: routes as declared, endpoints
// with their ids replaced, reasons from the connector's own codes; never an account id or a
// ticket. One exception: the accounts whose ticket updates wait past the late threshold are named
// by Zendesk subdomain, at most TROUBLED_SERIES_MAX of them, because an operator paged for late
// notes must find the tenant, and a series exists only while its account is late.
import { collectDefaultMetrics, Registry } from 'prom-client';
import { databaseSeries } from './database-series';
import { httpSeries } from './http-series';
import type { ConnectorMetrics } from './metric-types';
import { queueGauges } from './queue-gauges';
import { ticketWriteGauges } from './ticket-write-gauges';
import { upstreamSeries } from './upstream-series';
import { workSeries } from './work-series';

export {
  type ConnectorMetrics,
  type QueueDepthReader,
  type TakeoverKind,
  type TokenRefreshOutcome,
  type ZendeskCall,
} from './metric-types';

/** `processMetrics`: also Node's own (memory, event loop lag, GC), when anyone can scrape them. */
export function createConnectorMetrics(options: { processMetrics: boolean }): ConnectorMetrics {
  const registry = new Registry();
  // Node's standard series under their standard names (process_*, nodejs_*), as dashboards expect.
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  return {
    registry,
    ...httpSeries(registry),
    ...workSeries(registry),
    ...upstreamSeries(registry),
    ...queueGauges(registry),
    ...ticketWriteGauges(registry),
    ...databaseSeries(registry),
  };
}
