// The queue views (queue-views.ts): setup's own are those whose ids it stored, and, to find them
// after a lost database, those carrying its mark in their description (a copy of one carries it
// too); a view is never taken for setup's by its title alone. Created when missing, their
// conditions restored when they drifted, never created twice (further own views of a definition,
// an earlier partial run or a copy, are deleted). An admin's view that only looks like one (same
// title, no mark) is left as it is, and the step says so. Turned off on the admin page, the views
// setup made go (by stored id).
import {
  ZendeskRecordNotFoundError,
  type TView,
  type TViewCreateInput,
  type ZendeskClient,
} from '@incident-desk/zendesk-api';
import { buildQueueViews, isOwnQueueView } from './queue-views';
import type { StepReport } from './setup-result';
import { stepErrorMessage } from './step-error';

export interface EnsureQueueViewsInput {
  zendesk: ZendeskClient;
  /** The Incident Status drop-down the views read; null when the field step failed. */
  statusFieldId: number | null;
  /** The account's choice (admin page); off removes the views setup made. */
  enabled: boolean;
  /** The views setup made before (the account's configuration). */
  storedIds: number[];
}

export interface EnsureQueueViewsResult {
  /** The ids to store, or null to keep the stored ones (the step could not say). */
  viewIds: number[] | null;
  steps: StepReport[];
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

function sameConditions(
  have: { field: string; operator: string; value?: unknown }[],
  want: { field: string; operator: string; value?: unknown }[],
): boolean {
  const key = (c: { field: string; operator: string; value?: unknown }) =>
    `${c.field}\u0000${c.operator}\u0000${text(c.value)}`;
  return (
    have.length === want.length &&
    have.map(key).sort().join('\n') === want.map(key).sort().join('\n')
  );
}

function drifted(view: TView, wanted: TViewCreateInput): boolean {
  return (
    !sameConditions(view.conditions.all, wanted.all) ||
    !sameConditions(view.conditions.any, wanted.any ?? []) ||
    view.active === false
  );
}

/**
 * The views of a title: setup's own (stored first, then the oldest: `first` is kept, the `copies`
 * go) and the ids of those that only look like setup's.
 */
function viewsOfTitle(existing: TView[], title: string, storedIds: number[]) {
  const sameTitle = existing.filter((view) => view.title === title);
  const stored = new Set(storedIds);
  const [first, ...copies] = sameTitle
    .filter((view) => isOwnQueueView(view, storedIds))
    .sort((a, b) => Number(stored.has(b.id)) - Number(stored.has(a.id)) || a.id - b.id);
  const lookAlikes = sameTitle
    .filter((view) => !isOwnQueueView(view, storedIds))
    .map((view) => view.id);
  return { first, copies, lookAlikes };
}

export async function ensureQueueViews(
  input: EnsureQueueViewsInput,
): Promise<EnsureQueueViewsResult> {
  const { zendesk } = input;
  if (!input.enabled) return removeQueueViews(zendesk, input.storedIds);
  if (input.statusFieldId === null) {
    return {
      viewIds: null,
      steps: [
        {
          step: 'view',
          target: 'all views',
          outcome: 'skipped',
          message: 'the Incident Status field is missing',
        },
      ],
    };
  }
  const definitions = buildQueueViews(input.statusFieldId);
  let existing: TView[];
  try {
    existing = [];
    for await (const view of zendesk.views.list()) existing.push(view);
  } catch (error) {
    const message = `could not list views: ${stepErrorMessage(error)}`;
    return {
      viewIds: null,
      steps: definitions.map(({ title }) => ({
        step: 'view',
        target: title,
        outcome: 'failed',
        message,
      })),
    };
  }

  const viewIds: number[] = [];
  const steps: StepReport[] = [];
  let failed = false;
  for (const wanted of definitions) {
    const report = (outcome: StepReport['outcome'], message?: string) =>
      steps.push({ step: 'view', target: wanted.title, outcome, ...(message ? { message } : {}) });
    try {
      const { first, copies, lookAlikes } = viewsOfTitle(existing, wanted.title, input.storedIds);
      for (const copy of copies) await zendesk.views.delete(copy.id);
      const notes = [
        copies.length > 0 ? `deleted ${copies.length} duplicate(s)` : undefined,
        lookAlikes.length > 0
          ? `left the account's own view(s) of that title as they are (${lookAlikes.map((id) => `view ${id}`).join(', ')})`
          : undefined,
      ].filter((note): note is string => note !== undefined);
      if (!first) {
        const created = await zendesk.views.create(wanted);
        viewIds.push(created.id);
        report('created', notes.join('; ') || undefined);
        continue;
      }
      viewIds.push(first.id);
      if (!drifted(first, wanted)) {
        report(copies.length > 0 ? 'updated' : 'found', notes.join('; ') || undefined);
        continue;
      }
      // a condition array given replaces the view's: both are sent; the columns only when the
      // Incident Status column is gone (a new field): an admin's own columns are kept otherwise
      const columns = first.execution?.columns?.map((column) => column.id) ?? [];
      await zendesk.views.update(first.id, {
        all: wanted.all,
        any: wanted.any ?? [],
        active: true,
        ...(columns.includes(input.statusFieldId) ? {} : { output: wanted.output }),
      });
      report('updated', ['restored its conditions', ...notes].join('; '));
    } catch (error) {
      failed = true;
      report('failed', stepErrorMessage(error));
    }
  }
  // a definition that failed may still have its view from an earlier run: keep those ids too
  const ids = failed ? [...new Set([...viewIds, ...input.storedIds])] : viewIds;
  return { viewIds: ids, steps };
}

/** Deletes the views setup made (by stored id); one already gone is no failure. */
async function removeQueueViews(
  zendesk: ZendeskClient,
  storedIds: number[],
): Promise<EnsureQueueViewsResult> {
  if (storedIds.length === 0) {
    return {
      viewIds: [],
      steps: [{ step: 'view', target: 'all views', outcome: 'skipped', message: 'turned off' }],
    };
  }
  const steps: StepReport[] = [];
  const kept: number[] = [];
  for (const id of storedIds) {
    try {
      await zendesk.views.delete(id);
      steps.push({ step: 'view', target: `view ${id}`, outcome: 'removed', message: 'turned off' });
    } catch (error) {
      if (error instanceof ZendeskRecordNotFoundError) {
        steps.push({
          step: 'view',
          target: `view ${id}`,
          outcome: 'removed',
          message: 'already gone',
        });
        continue;
      }
      kept.push(id);
      steps.push({
        step: 'view',
        target: `view ${id}`,
        outcome: 'failed',
        message: stepErrorMessage(error),
      });
    }
  }
  return { viewIds: kept, steps };
}
