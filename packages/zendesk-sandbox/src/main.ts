import { parseMainConfig, type MainConfig } from './main-config';
import { DEMO_GLOBAL_CLIENT, seedDemo } from './seed-demo';
import { createZendeskSandbox, type ZendeskSandbox } from './server';

let config: MainConfig;
let sandbox: ZendeskSandbox;
try {
  config = parseMainConfig(process.env);
  sandbox = createZendeskSandbox({
    ...(config.publicUrl !== undefined ? { publicUrl: config.publicUrl } : {}),
    searchLagMs: config.searchLagMs,
    globalClients: [{ ...DEMO_GLOBAL_CLIENT, redirect_uris: config.redirectUris }],
    workspace: config.workspace,
    ...(config.stateFile !== undefined ? { stateFile: config.stateFile } : {}),
  });
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const saved = sandbox.stateFile;
if (saved?.kind === 'set-aside') {
  console.warn(
    `the saved state ${saved.file} cannot be used (${saved.reason}): set aside as ${saved.asidePath}; starting from the seed`,
  );
}
const kept = sandbox.state.account('demo');
const demo = kept ? null : seedDemo(sandbox);
sandbox.flushState();
const listening = await sandbox.listen(config.port, config.host);

console.log(
  `zendesk sandbox listening on ${listening.url} (bound to ${config.host}; ${saved === null ? 'in memory' : `${saved.kind === 'loaded' ? 'state loaded from' : 'new state in'} ${saved.file}`})`,
);
if (demo) {
  console.log(
    `  account "demo" API: ${listening.url}/_z/demo/api/v2  (admin ${demo.adminId}, agents ${demo.agentIds.join(', ')}, end user ${demo.endUserId})`,
  );
  console.log(
    `  fields: threat ${demo.threatFieldId}, incident ${demo.incidentFieldId}, status ${demo.statusFieldId}; tickets ${demo.ticketIds.join(', ')}`,
  );
} else if (kept) {
  console.log(
    `  account "demo" API: ${listening.url}/_z/demo/api/v2  (kept: ${kept.tickets.size} tickets, ${kept.users.size} users)`,
  );
}
console.log(
  `  global OAuth client: ${DEMO_GLOBAL_CLIENT.identifier} / ${DEMO_GLOBAL_CLIENT.secret}, redirect URIs ${config.redirectUris.join(' ')}`,
);
console.log(`  control API: ${listening.url}/_sandbox (ready: /_sandbox/ready)`);
console.log(`  agent workspace: ${listening.url}/agent/tickets/1`);

const shutdown = () => {
  sandbox.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`zendesk sandbox: stopping: ${String(error)}`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
