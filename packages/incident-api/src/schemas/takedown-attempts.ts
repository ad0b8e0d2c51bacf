import { z } from 'zod';
import { ZTakedownOutcome } from './vocabularies';

/**
 * One takedown attempt. startedAt null = started before recording; resolvedAt and outcome null
 * = in progress; resolvedAt null with an outcome = resolved before recording, date unknown.
 */
export const ZTakedownAttempt = z.looseObject({
  startedAt: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  outcome: ZTakedownOutcome.nullable(),
});
export type TTakedownAttempt = z.infer<typeof ZTakedownAttempt>;

/** TakedownAttemptsStructure: one per incident; attempts oldest first, empty when none recorded. */
export const ZTakedownAttempts = z.looseObject({
  id: z.string(),
  subject: z.string(),
  createdAt: z.string(),
  takedownAttempts: z.array(ZTakedownAttempt),
});
export type TTakedownAttempts = z.infer<typeof ZTakedownAttempts>;
