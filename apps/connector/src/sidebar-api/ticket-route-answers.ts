// What the sidebar's ticket routes share: reading the ticket the caller may see (or act on), a
// parsed body, and an action's answer.
import express, { type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import type { TDatabase } from '@incident-desk/db';
import type { TTicket } from '../accounts';
import { AppError, sendAppError } from '../http';
import type { Inbox } from '../ingest';
import { maySeeTicket } from './agent-access';
import { callerOf } from './authenticate';
import { accountError } from './sidebar-errors';
import type { ActionResult } from './ticket-actions';

/** What every group of ticket routes is given. */
export interface TicketRouteDeps {
  db: TDatabase;
  now: () => Date;
  /** authenticateSidebar: the session's caller, on a ticket path. */
  authenticate: RequestHandler<Record<string, string>>;
  /** Needed by the routes that enqueue ticket jobs; without it they answer 501. */
  inbox?: Inbox;
}

export const TICKET_PATH = '/sidebar/tickets/:ticketId';

/** The body parser of the actions: they send a few fields. */
export function actionBodyParser(): RequestHandler {
  return express.json({ limit: '8kb' });
}

/**
 * The ticket, read with the account's own client (another account's ticket is not found), when
 * the user may see it; a ticket they may not see answers as one that does not exist.
 */
export async function ticketOf(res: Response): Promise<TTicket | null> {
  const { ctx, ticketId, access } = callerOf(res);
  let ticket: TTicket;
  try {
    ticket = await ctx.zendesk.tickets.show(ticketId);
  } catch (error) {
    sendAppError(res, accountError(error));
    return null;
  }
  if (maySeeTicket(access, ticket)) return ticket;
  sendAppError(res, new AppError('ticket_not_found', { message: 'ticket not found' }));
  return null;
}

/** An action's ticket: also refused to users who may only read (light agents). */
export async function ticketToActOn(res: Response): Promise<TTicket | null> {
  const ticket = await ticketOf(res);
  if (!ticket || callerOf(res).access.canAct) return ticket;
  sendAppError(
    res,
    new AppError('read_only', {
      message: 'your Zendesk role may view this ticket but not act on it',
    }),
  );
  return null;
}

export function answer(res: Response, result: ActionResult) {
  if ('error' in result) return sendAppError(res, result.error);
  res.status(result.status).json({ message: result.message });
}

export function bodyOf<T>(req: Request, res: Response, schema: z.core.$ZodType<T>): T | null {
  const parsed = z.safeParse(schema, req.body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const message = `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`;
  sendAppError(res, new AppError('invalid_body', { message }));
  return null;
}

export const noInbox = (res: Response) =>
  sendAppError(
    res,
    new AppError('not_implemented', {
      message: 'this connector instance does not queue ticket jobs',
    }),
  );
