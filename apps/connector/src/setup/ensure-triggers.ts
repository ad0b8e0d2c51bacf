// Triggers matched by title: created when missing, updated when their definition drifted, never
// created twice. Further triggers with the same title (an earlier partial run, a copy) are
// deleted, because each would send the webhook again.
import type { TTrigger, TTriggerCreateInput, ZendeskClient } from '@incident-desk/zendesk-api';
import type { StepReport } from './setup-result';
import { stepErrorMessage } from './step-error';
import { triggerDrift } from './trigger-drift';

export interface EnsureTriggersResult {
  triggers: { title: string; id: number }[];
  steps: StepReport[];
}

function complete(wanted: TTriggerCreateInput): TTriggerCreateInput {
  // Zendesk replaces the whole conditions object on update; an omitted `any` would keep nothing.
  return {
    ...wanted,
    conditions: { all: wanted.conditions.all ?? [], any: wanted.conditions.any ?? [] },
  };
}

export async function ensureTriggers(
  zendesk: ZendeskClient,
  definitions: TTriggerCreateInput[],
): Promise<EnsureTriggersResult> {
  let existing: TTrigger[];
  try {
    existing = [];
    for await (const trigger of zendesk.triggers.list()) existing.push(trigger);
  } catch (error) {
    const message = `could not list triggers: ${stepErrorMessage(error)}`;
    return {
      triggers: [],
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
  for (const definition of definitions) {
    const wanted = complete(definition);
    const report = (outcome: StepReport['outcome'], message?: string) =>
      steps.push({
        step: 'trigger',
        target: wanted.title,
        outcome,
        ...(message ? { message } : {}),
      });
    try {
      const [first, ...copies] = existing
        .filter((trigger) => trigger.title === wanted.title)
        .sort((a, b) => a.id - b.id);
      for (const copy of copies) await zendesk.triggers.delete(copy.id);
      const removed = copies.length > 0 ? `deleted ${copies.length} duplicate(s)` : undefined;
      if (!first) {
        const created = await zendesk.triggers.create(wanted);
        triggers.push({ title: wanted.title, id: created.id });
        report('created');
        continue;
      }
      triggers.push({ title: wanted.title, id: first.id });
      const drift = triggerDrift(first, wanted);
      if (drift.length === 0) {
        report(removed ? 'updated' : 'found', removed);
        continue;
      }
      await zendesk.triggers.update(first.id, {
        conditions: wanted.conditions,
        actions: wanted.actions,
        active: wanted.active ?? true,
        ...(wanted.description === undefined ? {} : { description: wanted.description }),
      });
      report('updated', [`restored ${drift.join(', ')}`, removed].filter(Boolean).join('; '));
    } catch (error) {
      report('failed', stepErrorMessage(error));
    }
  }
  return { triggers, steps };
}
