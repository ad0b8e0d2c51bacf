import type { Response } from 'express';
import { type AppError, sendAppError } from '../http';

/**
 * An admin operation's answer: its refusal as the error envelope (with the `facts` the admin page
 * words it with, when it has any), or its result as JSON.
 */
export function sendResult<T extends object>(
  res: Response,
  result: T | { error: AppError; facts?: Record<string, unknown> },
  status: number | ((result: T) => number) = 200,
): void {
  if ('error' in result) {
    sendAppError(res, result.error, result.facts ? { facts: result.facts } : {});
    return;
  }
  res.status(typeof status === 'number' ? status : status(result)).json(result);
}
