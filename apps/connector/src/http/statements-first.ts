import { withStatementsFirst } from '@incident-desk/db';
import type { Request, Response } from 'express';

/**
 * A webhook receiver's handler whose database statements go before the worker's waiting ones
 * (PGlite's one connection): its sender waits for the answer, and may drop the delivery past its
 * timeout (Zendesk: 12 s, not sent again).
 */
export function statementsFirst(
  handler: (req: Request, res: Response) => Promise<void>,
): (req: Request, res: Response) => Promise<void> {
  return (req, res) => withStatementsFirst(() => handler(req, res));
}
