// The triggers (trigger-definitions.ts): setup's own are those whose ids it stored, and, to find
// them after a lost database, those carrying its mark in their description; a trigger is never
// taken for setup's by its title alone. Created when missing, updated when their definition
// drifted, never created twice: further own triggers of a title (an earlier partial run, a copy)
// are deleted, because each would send the webhook again. An admin's trigger that only looks like
// one (same title, no mark) is left as it is, and the step says so.
import type { TTrigger, TTriggerCreateInput, ZendeskClient } from '@incident-desk/zendesk-api';
import type { StepReport } from './setup-result';
import { stepErrorMessage } from './step-error';
import { isOwnTrigger } from './trigger-definitions';
import { triggerDrift } from './trigger-drift';

export interface EnsureTriggersResult {
  triggers: { title: string; id: number }[];
  /** The ids to store, or null to keep the stored ones (the triggers could not be listed). */
  triggerIds: number[] | null;
  steps: StepReport[];
}

function complete(wanted: TTriggerCreateInput): TTriggerCreateInput {
  // Zendesk replaces the whole conditions object on update; an omitted `any` would keep nothing.
  return {
    ...wanted,
    conditions: { all: wanted.conditions.all ?? [], any: wanted.conditions.any ?? [] },
  };
}

/**
 * The triggers of a title: setup's own (stored first, then the oldest: `first` is kept, the
 * `copies` go) and the ids of those that only look like setup's.
 */
function triggersOfTitle(existing: TTrigger[], title: string, storedIds: readonly number[]) {
  const sameTitle = existing.filter((trigger) => trigger.title === title);
  const stored = new Set(storedIds);
  const [first, ...copies] = sameTitle
    .filter((trigger) => isOwnTrigger(trigger, storedIds))
    .sort((a, b) => Number(stored.has(b.id)) - Number(stored.has(a.id)) || a.id - b.id);
  const lookAlikes = sameTitle
    .filter((trigger) => !isOwnTrigger(trigger, storedIds))
    .map((trigger) => trigger.id);
  return { first, copies, lookAlikes };
}

const lookAlikeNote = (ids: number[]) =>
  ids.length > 0
    ? `left the account's own trigger(s) of that title as they are (${ids.map((id) => `trigger ${id}`).join(', ')})`
    : undefined;

export async function ensureTriggers(
  zendesk: ZendeskClient,
  definitions: TTriggerCreateInput[],
  storedIds: readonly number[] = [],
): Promise<EnsureTriggersResult> {
  let existing: TTrigger[];
  try {
    existing = [];
    for await (const trigger of zendesk.triggers.list()) existing.push(trigger);
  } catch (error) {
    const message = `could not list triggers: ${stepErrorMessage(error)}`;
    return {
      triggers: [],
      triggerIds: null,
      steps: definitions.map(({ title }) => ({
        step: 'trigger',
        target: title,
        outcome: 'failed',
        message,
      })),
    };
  }

  const triggers: EnsureTriggersResult['triggers'] = [];
  const steps: StepReport[] = [];
  let failed = false;
  for (const definition of definitions) {
    const wanted = complete(definition);
    const report = (outcome: StepReport['outcome'], notes: (string | undefined)[] = []) => {
      const message = notes.filter(Boolean).join('; ');
      steps.push({
        step: 'trigger',
        target: wanted.title,
        outcome,
        ...(message ? { message } : {}),
      });
    };
    try {
      const { first, copies, lookAlikes } = triggersOfTitle(existing, wanted.title, storedIds);
      for (const copy of copies) await zendesk.triggers.delete(copy.id);
      const removed = copies.length > 0 ? `deleted ${copies.length} duplicate(s)` : undefined;
      const leftAlone = lookAlikeNote(lookAlikes);
      if (!first) {
        const created = await zendesk.triggers.create(wanted);
        triggers.push({ title: wanted.title, id: created.id });
        report('created', [removed, leftAlone]);
        continue;
      }
      triggers.push({ title: wanted.title, id: first.id });
      const drift = triggerDrift(first, wanted);
      if (drift.length === 0) {
        report(removed ? 'updated' : 'found', [removed, leftAlone]);
        continue;
      }
      await zendesk.triggers.update(first.id, {
        conditions: wanted.conditions,
        actions: wanted.actions,
        active: wanted.active ?? true,
        ...(wanted.description === undefined ? {} : { description: wanted.description }),
      });
      report('updated', [`restored ${drift.join(', ')}`, removed, leftAlone]);
    } catch (error) {
      failed = true;
      report('failed', [stepErrorMessage(error)]);
    }
  }
  const ids = triggers.map((trigger) => trigger.id);
  // a definition that failed may still have its trigger from an earlier run: keep those ids too
  return { triggers, triggerIds: failed ? [...new Set([...ids, ...storedIds])] : ids, steps };
}
