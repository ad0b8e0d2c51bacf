// Sidebar JWTs as an attacker would make them: Zendesk's proxy signs HS256 with the installation's
// shared secret; everything here except `valid` must be refused.
import { createHmac } from 'node:crypto';

export type TokenForgery =
  | 'valid'
  | 'bad_signature'
  | 'expired'
  | 'foreign_installation'
  | 'foreign_subdomain'
  | 'alg_none'
  | 'alg_hs512'
  | 'no_exp'
  | 'bad_claims'
  | 'ticket_mismatch'
  | 'foreign_agent';

export interface TokenTarget {
  subdomain: string;
  secret: string;
  foreignSubdomain: string;
  foreignSecret: string;
  agent: { id: number; email: string };
  foreignAgentId: number;
  ticketId: number;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function jwt(header: Record<string, unknown>, payload: unknown, secret: string | null): string {
  const signingInput = `${b64(header)}.${b64(payload)}`;
  if (secret === null) return `${signingInput}.`;
  const algorithm = header.alg === 'HS512' ? 'sha512' : 'sha256';
  return `${signingInput}.${createHmac(algorithm, secret).update(signingInput).digest('base64url')}`;
}

/**
 * @param ageSeconds how far in the past an expired token expired (beyond the 5 s tolerance)
 * @param junk a random JSON value used as a wrongly typed claim
 */
export function forgeToken(
  how: TokenForgery,
  target: TokenTarget,
  nowMs: number,
  ageSeconds: number,
  junk: unknown,
): string {
  const now = Math.floor(nowMs / 1000);
  const claims = {
    subdomain: target.subdomain,
    agent_id: target.agent.id,
    agent_email: target.agent.email,
    ticket_id: target.ticketId,
    iat: now,
    exp: now + 120,
  };
  const hs256 = { alg: 'HS256', typ: 'JWT' };
  switch (how) {
    case 'valid':
      return jwt(hs256, claims, target.secret);
    case 'bad_signature':
      return jwt(hs256, claims, `${target.secret}-guessed`);
    case 'expired':
      return jwt(
        hs256,
        { ...claims, iat: now - ageSeconds - 120, exp: now - ageSeconds },
        target.secret,
      );
    case 'foreign_installation':
      // Another installation's secret, claiming this account.
      return jwt(hs256, claims, target.foreignSecret);
    case 'foreign_subdomain':
      // This installation's secret, claiming another account.
      return jwt(hs256, { ...claims, subdomain: target.foreignSubdomain }, target.secret);
    case 'alg_none':
      return jwt({ alg: 'none', typ: 'JWT' }, claims, null);
    case 'alg_hs512':
      return jwt({ alg: 'HS512', typ: 'JWT' }, claims, target.secret);
    case 'no_exp': {
      const { exp: _exp, ...rest } = claims;
      return jwt(hs256, rest, target.secret);
    }
    case 'bad_claims':
      return jwt(hs256, { ...claims, agent_id: junk ?? 'x', ticket_id: { junk } }, target.secret);
    case 'ticket_mismatch':
      return jwt(hs256, { ...claims, ticket_id: target.ticketId + 1 }, target.secret);
    case 'foreign_agent':
      return jwt(hs256, { ...claims, agent_id: target.foreignAgentId }, target.secret);
  }
}
