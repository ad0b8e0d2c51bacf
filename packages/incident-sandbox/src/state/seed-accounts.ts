// The demo's organisations: the parent client with its two sub-clients, another organisation, and
// the API key each is reached with.
import type { SandboxStore } from './store';

export const DEMO_API_KEY = 'sandbox-demo-key';
export const OTHER_ORG_API_KEY = 'sandbox-other-key';
export const DEMO_PARENT_CLIENT_ID = 'cl_demo_parent';
export const DEMO_RETAIL_CLIENT_ID = 'cl_demo_retail';
export const DEMO_BANK_CLIENT_ID = 'cl_demo_bank';
export const OTHER_ORG_CLIENT_ID = 'cl_other_org';

export function seedClients(store: SandboxStore): void {
  const s = store.state;
  s.clients.push(
    {
      id: DEMO_PARENT_CLIENT_ID,
      name: 'Demo Parent Co',
      active: true,
      parentClientId: null,
      safeDomain: 'demo-parent.example',
      resolutionsEnabled: true,
      credits: 25,
      creditsExpireAt: null,
      approvalConsumesCredit: true,
    },
    {
      id: DEMO_RETAIL_CLIENT_ID,
      name: 'Demo Retail',
      active: true,
      parentClientId: DEMO_PARENT_CLIENT_ID,
      safeDomain: 'demo-retail.example',
      resolutionsEnabled: true,
      credits: 'unlimited',
      creditsExpireAt: null,
      approvalConsumesCredit: false,
    },
    {
      id: DEMO_BANK_CLIENT_ID,
      name: 'Demo Bank',
      active: true,
      parentClientId: DEMO_PARENT_CLIENT_ID,
      safeDomain: 'demo-bank.example',
      resolutionsEnabled: true,
      credits: null,
      creditsExpireAt: null,
      approvalConsumesCredit: false,
    },
    {
      id: OTHER_ORG_CLIENT_ID,
      name: 'Other Org',
      active: true,
      parentClientId: null,
      safeDomain: 'other-org.example',
      resolutionsEnabled: false,
      credits: 0,
      creditsExpireAt: null,
      approvalConsumesCredit: true,
    },
  );
  s.apiKeys.push(
    {
      key: DEMO_API_KEY,
      clientId: DEMO_PARENT_CLIENT_ID,
      clientIds: [DEMO_PARENT_CLIENT_ID, DEMO_RETAIL_CLIENT_ID, DEMO_BANK_CLIENT_ID],
      scopes: ['incidents:read'],
    },
    {
      key: OTHER_ORG_API_KEY,
      clientId: OTHER_ORG_CLIENT_ID,
      clientIds: [OTHER_ORG_CLIENT_ID],
      scopes: ['incidents:read'],
    },
  );
}
