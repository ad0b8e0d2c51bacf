// The structured logger and the context each log line carries.
// The one door into log/: other folders import only what is exported here.
export { currentLogContext, withLogContext } from './log-context';
export {
  LOG_THRESHOLDS,
  configureLogging,
  createLogger,
  describeError,
  logger,
  redact,
  type ConnectorLogger,
  type LogSettings,
  type Logger,
} from './logger';
