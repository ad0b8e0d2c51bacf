// What `npm start` does with the last run's data before it starts anything: keep it whole, or,
// when a part is missing or unusable, set the unusable aside and start every part fresh, saying
// which and why.
import { rmSync } from 'node:fs';
import { makingDirOf } from '@incident-desk/db';
import { setStateFileAside } from '@incident-desk/state-file';
import { lockDemoData } from './demo-data-locks';
import { takeInventory, type TDemoInventory } from './demo-data-inventory';
import { shown, type TDemoDataPaths } from './demo-data-paths';
import { planDemoData, type TDemoPart, type TDemoPlan, type TSandboxName } from './demo-data-plan';

export interface TPreparedDemoData {
  inventory: TDemoInventory;
  plan: TDemoPlan;
  /** To say at once: what was set aside or reset, and why. */
  notices: string[];
  /** One line for the end of the start-up summary: what was kept and how to start fresh. */
  summary: string;
}

const RESET_HINT = '`npm run reset` starts fresh.';

export function prepareDemoData(
  root: string,
  paths: TDemoDataPaths,
  now: Date = new Date(),
): TPreparedDemoData {
  const fileOf = (name: TSandboxName) =>
    name === 'incident' ? paths.incidentFile : paths.zendeskFile;
  const label = (part: TDemoPart) =>
    part === 'connector'
      ? `the connector's database${paths.connectorDb.kind === 'pglite' ? ` (${shown(root, paths.connectorDb.dir)})` : ''}`
      : `the ${part === 'incident' ? 'incident' : 'Zendesk'} sandbox's state (${shown(root, fileOf(part))})`;

  const locks = lockDemoData(paths);
  try {
    const inventory = takeInventory(paths);
    const plan = planDemoData(inventory);
    const notices: string[] = [];
    if (inventory.connector === 'half-made' && paths.connectorDb.kind === 'pglite') {
      const making = makingDirOf(paths.connectorDb.dir);
      rmSync(making, { recursive: true, force: true });
      notices.push(
        `${capitalised(label('connector'))} was left half-made by a start that did not finish (${shown(root, making)}, removed): it is made again.`,
      );
    }
    if (plan.kind === 'reset') {
      for (const name of plan.setAside) {
        const saved = inventory[name];
        const aside = setStateFileAside(fileOf(name), now);
        notices.push(
          `${capitalised(label(name))} cannot be used (${saved.kind === 'unusable' ? saved.reason : 'unusable'}): set aside as ${shown(root, aside)}.`,
        );
      }
      for (const part of plan.remove) {
        if (part !== 'connector') rmSync(fileOf(part), { force: true });
        else if (paths.connectorDb.kind === 'pglite')
          rmSync(paths.connectorDb.dir, { recursive: true, force: true });
      }
      const { part, missing } = plan.cause;
      const reset = plan.remove.map(label);
      notices.push(
        `Starting the demo fresh: ${label(part)} ${missing ? 'is missing' : 'could not be used'}` +
          (reset.length > 0
            ? `, so ${reset.join(' and ')} ${reset.length > 1 ? 'were' : 'was'} reset too (else ticket, event and incident ids would repeat what the connector stored).`
            : '.'),
      );
    }
    if (inventory.connector === 'external' && plan.kind !== 'keep') {
      notices.push(
        "The connector's database is DATABASE_URL, which npm start cannot look at: if an earlier demo used it, point DATABASE_URL at an empty database, or the sandboxes' new ids will repeat what it stored.",
      );
    }
    return { inventory, plan, notices, summary: summaryOf(inventory, plan, label('connector')) };
  } finally {
    locks.release();
  }
}

function summaryOf(inventory: TDemoInventory, plan: TDemoPlan, connector: string): string {
  if (plan.kind === 'fresh') return `A new demo: kept for the next npm start; ${RESET_HINT}`;
  if (plan.kind === 'reset') return `Started fresh (see above), kept from now on; ${RESET_HINT}`;
  const count = (saved: TDemoInventory['incident']) => (saved.kind === 'usable' ? saved.count : 0);
  return `Kept from the last run: ${count(inventory.zendesk)} tickets, ${count(inventory.incident)} incidents and ${connector}. ${RESET_HINT}`;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
