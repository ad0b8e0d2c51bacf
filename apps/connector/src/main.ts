// Runs the connector: configuration from the environment, the service on CONNECTOR_PORT, the demo
// when DEMO is on, and a graceful stop on SIGINT / SIGTERM.
import { createConnector } from './app';
import { ConfigError, loadConfig } from './config';
import { demoNextSteps, runDemo } from './demo/run-demo';

let config;
try {
  config = loadConfig(process.env);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}

const connector = await createConnector(config);
let listening;
try {
  listening = await connector.listen(config.port);
} catch (error) {
  console.error(
    `cannot listen on port ${config.port}:`,
    error instanceof Error ? error.message : error,
  );
  await connector.close();
  process.exit(1);
}
console.log(
  `connector listening on ${listening.url} (public URL ${config.publicUrl}, ${connector.db.backend})`,
);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping (finishing or handing back jobs)…`);
  try {
    await connector.close();
    process.exit(0);
  } catch (error) {
    console.error('error while stopping:', error);
    process.exit(1);
  }
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

if (config.demo) {
  try {
    await runDemo({
      db: connector.db,
      secretBox: connector.secretBox,
      accounts: connector.accounts,
      oauth: config.oauth,
      demo: config.demo,
      connectorUrl: config.publicUrl,
    });
    console.log(demoNextSteps(config.demo));
  } catch (error) {
    // The connector keeps serving: the demo can be retried by restarting.
    console.error('demo set-up failed:', error instanceof Error ? error.message : error);
  }
}
