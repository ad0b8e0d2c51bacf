// The demo's data (what `POST /_sandbox/reset` restores): organisations and keys, incidents, people
// and documents, seeded in this order (ids are drawn in it).
import { seedClients } from './seed-accounts';
import { seedIncidents } from './seed-incidents';
import { seedDocuments, seedUsers } from './seed-people';
import type { SandboxStore } from './store';

export function seedDemo(store: SandboxStore): void {
  seedClients(store);
  seedIncidents(store);
  seedUsers(store);
  seedDocuments(store);
}
