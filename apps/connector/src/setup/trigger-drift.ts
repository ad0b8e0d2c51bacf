// Whether a Zendesk trigger still matches its definition. Order of conditions does not matter to
// Zendesk; order of actions does. Values are compared as text because Zendesk may echo numbers
// or booleans as strings.
import type { TTrigger, TTriggerCreateInput } from '@incident-desk/zendesk-api';

function valueText(value: unknown): string {
  if (Array.isArray(value)) return JSON.stringify(value.map((item) => String(item)));
  return value === undefined || value === null ? '' : String(value);
}

function conditionKeys(
  conditions: readonly { field: string; operator: string; value?: unknown }[] | undefined,
): string[] {
  return (conditions ?? []).map((c) => `${c.field}|${c.operator}|${valueText(c.value)}`).sort();
}

function actionKeys(actions: readonly { field: string; value?: unknown }[]): string[] {
  return actions.map((a) => `${a.field}|${valueText(a.value)}`);
}

const same = (a: string[], b: string[]) =>
  a.length === b.length && a.every((item, index) => item === b[index]);

/** The parts that differ, empty when the trigger matches. */
export function triggerDrift(existing: TTrigger, wanted: TTriggerCreateInput): string[] {
  const drift: string[] = [];
  if ((existing.active ?? true) !== (wanted.active ?? true)) drift.push('active');
  if (!same(conditionKeys(existing.conditions.all), conditionKeys(wanted.conditions.all)))
    drift.push('conditions.all');
  if (!same(conditionKeys(existing.conditions.any), conditionKeys(wanted.conditions.any)))
    drift.push('conditions.any');
  if (!same(actionKeys(existing.actions), actionKeys(wanted.actions))) drift.push('actions');
  // the description carries setup's mark (trigger-definitions.ts): restored when it was edited
  if (wanted.description !== undefined && (existing.description ?? '') !== wanted.description)
    drift.push('description');
  return drift;
}
