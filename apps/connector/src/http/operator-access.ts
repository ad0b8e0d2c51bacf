// Who may read /metrics and /healthz's details: a client with the metrics token, or (outside
// production) one on this host talking to the connector directly.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';

const digest = (text: string) => createHash('sha256').update(text).digest();

export function hasToken(req: Request, token: string | undefined): boolean {
  if (!token) return false;
  const header = req.get('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

/** A client on this host talking to the connector directly: no proxy forwarded it. */
export function isDirectLoopback(req: Request): boolean {
  const address = req.socket.remoteAddress ?? '';
  const loopback = address === '::1' || /^(::ffff:)?127\./.test(address);
  return loopback && req.get('x-forwarded-for') === undefined && req.get('forwarded') === undefined;
}
