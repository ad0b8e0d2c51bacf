// The demo's people and documents: users of each client (staff among them, never listed) and the
// documents clients uploaded.
import { OPERATOR_EMAIL_DOMAIN } from '../domain/vocabulary';
import {
  DEMO_BANK_CLIENT_ID,
  DEMO_PARENT_CLIENT_ID,
  DEMO_RETAIL_CLIENT_ID,
  OTHER_ORG_CLIENT_ID,
} from './seed-accounts';
import { at } from './seed-clock';
import type { SandboxStore } from './store';

export function seedUsers(store: SandboxStore): void {
  const s = store.state;
  const user = (
    id: string,
    email: string,
    name: string | null,
    surname: string | null,
    roles: ('superuser' | 'parentadmin' | 'user' | 'admin')[],
    clientId: string | null,
    mfa: boolean,
  ) => ({
    id,
    email,
    name,
    surname,
    roles,
    clientId,
    mfaEnabled: mfa,
    createdAt: at(1),
    updatedAt: at(2),
  });
  s.users.push(
    user(
      'usr_parent_admin',
      'dana.admin@demo-parent.example',
      'Dana',
      'Admin',
      ['parentadmin', 'superuser'],
      DEMO_PARENT_CLIENT_ID,
      true,
    ),
    user(
      'usr_parent_user',
      'sam.user@demo-parent.example',
      'Sam',
      null,
      ['user'],
      DEMO_PARENT_CLIENT_ID,
      false,
    ),
    user(
      'usr_retail_super',
      'riley@demo-retail.example',
      'Riley',
      'Stone',
      ['superuser'],
      DEMO_RETAIL_CLIENT_ID,
      true,
    ),
    user(
      'usr_retail_user',
      'no-name@demo-retail.example',
      null,
      null,
      ['user'],
      DEMO_RETAIL_CLIENT_ID,
      false,
    ),
    user(
      'usr_bank_user',
      'alex.bank@demo-bank.example',
      'Alex',
      'Banks',
      ['user'],
      DEMO_BANK_CLIENT_ID,
      false,
    ),
    user(
      'usr_other_user',
      'pat@other-org.example',
      'Pat',
      'Other',
      ['superuser'],
      OTHER_ORG_CLIENT_ID,
      false,
    ),
    // Staff: never returned by /v1/users.
    user(
      'usr_staff_admin',
      'ops@demo-parent.example',
      'Ops',
      'Staff',
      ['admin'],
      DEMO_PARENT_CLIENT_ID,
      true,
    ),
    user(
      'usr_staff_domain',
      `analyst@${OPERATOR_EMAIL_DOMAIN}`,
      'Ana',
      'Lyst',
      ['user'],
      null,
      true,
    ),
  );
}

export function seedDocuments(store: SandboxStore): void {
  const s = store.state;
  s.documents.push(
    {
      id: 'doc_parent_loa',
      clientId: DEMO_PARENT_CLIENT_ID,
      docType: 'loa',
      fileName: 'letter-of-authorisation.pdf',
      uploadedBy: {
        id: 'usr_parent_admin',
        email: 'dana.admin@demo-parent.example',
        name: 'Dana',
        surname: 'Admin',
      },
      createdAt: at(3),
      updatedAt: at(3),
    },
    {
      id: 'doc_retail_tm',
      clientId: DEMO_RETAIL_CLIENT_ID,
      docType: 'trademark_registration',
      fileName: 'trademark.pdf',
      uploadedBy: null,
      createdAt: at(4),
      updatedAt: null,
    },
    {
      id: 'doc_parent_exec',
      clientId: DEMO_PARENT_CLIENT_ID,
      docType: 'exec_loa',
      fileName: null,
      uploadedBy: { email: 'dana.admin@demo-parent.example' },
      createdAt: null,
      updatedAt: null,
    },
    {
      id: 'doc_bank_file',
      clientId: DEMO_BANK_CLIENT_ID,
      docType: 'file',
      fileName: 'evidence.png',
      uploadedBy: null,
      createdAt: at(5),
      updatedAt: at(6),
    },
    {
      id: 'doc_other_loa',
      clientId: OTHER_ORG_CLIENT_ID,
      docType: 'loa',
      fileName: 'loa.pdf',
      uploadedBy: null,
      createdAt: at(5),
      updatedAt: at(5),
    },
  );
}
