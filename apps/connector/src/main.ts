// Runs the connector: configuration from the environment, the service on CONNECTOR_PORT, the demo
// when DEMO is on, and a graceful stop on SIGINT / SIGTERM (a second signal exits at once).
import { constants } from 'node:os';
import { createConnector } from './app';
import { ConfigError, loadConfig } from './config';
import { demoNextSteps, runDemo } from './demo';
import { configureLogging, logger } from './log';

let config;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) console.error(error.message);
  else logger.error('cannot read the configuration', { error });
  process.exit(1);
}
configureLogging(config.logging);

const connector = await createConnector(config);
// Before the first line saying it listens: a signal sent on seeing that line must find the handlers
// (until one is registered, SIGTERM's default action ends the process at once).
let stopping = false;
async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopping) {
    // an operator (or an orchestrator past its grace period) wants it gone now: jobs still
    // running are handed back by pg-boss once they expire
    logger.warn(`${signal} again: exiting without waiting`);
    process.exit(128 + constants.signals[signal]);
  }
  stopping = true;
  logger.info(`${signal}: stopping (finishing or handing back jobs)…`);
  try {
    await connector.close();
    process.exit(0);
  } catch (error) {
    logger.error('error while stopping', { error });
    process.exit(1);
  }
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

let listening;
try {
  listening = await connector.listen(config.port);
} catch (error) {
  logger.error(`cannot listen on port ${config.port}`, { error });
  await connector.close();
  process.exit(1);
}
logger.info(
  `connector listening on ${listening.url} (public URL ${config.publicUrl}, ${connector.db.backend})`,
);

if (config.demo) {
  try {
    await runDemo({
      db: connector.db,
      secretBox: connector.secretBox,
      accounts: connector.accounts,
      oauth: config.oauth,
      demo: config.demo,
      connectorUrl: config.publicUrl,
      log: (message) => logger.info(message),
    });
    // Fixed instructions over several lines: printed as they are.
    console.log(demoNextSteps(config.demo, config.publicUrl));
  } catch (error) {
    // The connector keeps serving: the demo can be retried by restarting.
    logger.error('demo set-up failed', { error });
  }
}
