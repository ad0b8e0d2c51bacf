// The connector's configuration: read once from the environment (and secret files) at start-up.
// The one door into config/: other folders import only what is exported here.
export { ConfigError, loadConfig, type ConnectorConfig, type DemoConfig } from './config';
