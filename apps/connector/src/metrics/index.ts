// The connector's metrics: one registry of series, gauges read on scrape.
// The one door into metrics/: other folders import only what is exported here.
export {
  createConnectorMetrics,
  type ConnectorMetrics,
  type QueueDepthReader,
  type TakeoverKind,
  type TokenRefreshOutcome,
  type ZendeskCall,
} from './connector-metrics';
