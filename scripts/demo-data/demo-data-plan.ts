// The demo's state is kept only whole. The connector stores the ids the sandboxes gave out
// (ticket, comment, event and incident ids, as dedupe keys and links); a sandbox starting empty
// gives the same ids again, which the connector would drop as duplicates or link to the wrong
// ticket. So when one part is missing or unusable while another was kept, every part starts fresh.
import type { TDemoInventory } from './demo-data-inventory';

export type TSandboxName = 'incident' | 'zendesk';
export type TDemoPart = TSandboxName | 'connector';

export type TDemoPlan =
  /** Nothing was kept: a first run. */
  | { kind: 'fresh' }
  /** Every part was kept and is usable. */
  | { kind: 'keep' }
  | {
      kind: 'reset';
      /** Why: the first part missing or unusable. */
      cause: { part: TDemoPart; missing: boolean };
      /** Unusable state files, moved aside for a look. */
      setAside: TSandboxName[];
      /** Kept parts deleted so they start fresh with the others. */
      remove: TDemoPart[];
    };

const SANDBOXES: TSandboxName[] = ['incident', 'zendesk'];

export function planDemoData(inventory: TDemoInventory): TDemoPlan {
  const kept: TDemoPart[] = SANDBOXES.filter((name) => inventory[name].kind === 'usable');
  const lacking: { part: TDemoPart; missing: boolean }[] = SANDBOXES.filter(
    (name) => inventory[name].kind !== 'usable',
  ).map((part) => ({ part, missing: inventory[part].kind === 'missing' }));
  if (inventory.connector === 'present') kept.push('connector');
  if (inventory.connector === 'missing' || inventory.connector === 'half-made')
    lacking.push({ part: 'connector', missing: inventory.connector === 'missing' });
  const setAside = SANDBOXES.filter((name) => inventory[name].kind === 'unusable');

  if (lacking.length === 0) return { kind: 'keep' };
  if (kept.length === 0 && setAside.length === 0) return { kind: 'fresh' };
  return { kind: 'reset', cause: lacking[0]!, setAside, remove: kept };
}
