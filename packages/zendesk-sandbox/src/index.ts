export { createZendeskSandbox, SANDBOX_CLIENT_ID } from './server';
export type {
  ZendeskSandbox,
  ZendeskSandboxOptions,
  GlobalClientConfig,
  ListeningSandbox,
  TStateFileOutcome,
} from './server';
export { readZendeskSandboxStateFile } from './state/state-file-format';
export type { ZendeskStateSnapshot } from './state/state-file-format';
export { seedDemo, DEMO_GLOBAL_CLIENT, DEMO_STATUS_FIELD_OPTIONS } from './seed-demo';
export type { DemoSeed } from './seed-demo';
export { signWebhook, ZENDESK_TEST_SIGNING_SECRET } from './triggers/sign-webhook';
export { accountBaseUrl } from './workspace-deps';
export type { WorkspaceDeps, WorkspaceUser } from './workspace-deps';
