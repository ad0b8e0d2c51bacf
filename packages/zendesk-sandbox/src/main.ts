import { parseMainConfig, type TMainConfig } from './main-config';
import { DEMO_GLOBAL_CLIENT, seedDemo } from './seed-demo';
import { createZendeskSandbox } from './server';

let config: TMainConfig;
try {
  config = parseMainConfig(process.env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

const sandbox = createZendeskSandbox({
  ...(config.publicUrl !== undefined ? { publicUrl: config.publicUrl } : {}),
  searchLagMs: config.searchLagMs,
  globalClients: [{ ...DEMO_GLOBAL_CLIENT, redirect_uris: config.redirectUris }],
  workspace: config.workspace,
});
const demo = seedDemo(sandbox);
const listening = await sandbox.listen(config.port, config.host);

console.log(`zendesk sandbox listening on ${listening.url} (bound to ${config.host})`);
console.log(
  `  account "demo" API: ${listening.url}/_z/demo/api/v2  (admin ${demo.adminId}, agents ${demo.agentIds.join(', ')}, end user ${demo.endUserId})`,
);
console.log(
  `  fields: threat ${demo.threatFieldId}, incident ${demo.incidentFieldId}, status ${demo.statusFieldId}; tickets ${demo.ticketIds.join(', ')}`,
);
console.log(
  `  global OAuth client: ${DEMO_GLOBAL_CLIENT.identifier} / ${DEMO_GLOBAL_CLIENT.secret}, redirect URIs ${config.redirectUris.join(' ')}`,
);
console.log(`  control API: ${listening.url}/_sandbox (ready: /_sandbox/ready)`);
console.log(`  agent workspace: ${listening.url}/agent/tickets/${demo.ticketIds[0]}`);

const shutdown = () => {
  void listening.close().then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
