export { createIncidentSandbox } from './sandbox';
export type { IncidentSandbox, IncidentSandboxOptions, ListeningSandbox } from './sandbox';
export type { TDataFileOutcome } from './state/store';
export { readIncidentSandboxStateFile } from './state/state-file-format';
export {
  DEMO_API_KEY,
  DEMO_BANK_CLIENT_ID,
  DEMO_PARENT_CLIENT_ID,
  DEMO_RETAIL_CLIENT_ID,
  OTHER_ORG_API_KEY,
  OTHER_ORG_CLIENT_ID,
} from './state/seed-accounts';
export type { TFaultRequest } from './http/faults';
export type { SandboxState, DeliveryRecord, TFidelitySettings } from './state/model';
