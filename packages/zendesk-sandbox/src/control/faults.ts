import type { RequestHandler } from 'express';
import { z } from 'zod';
import { FORBIDDEN, INVALID_TOKEN } from '../api/errors';
import { subdomainOf } from '../api/context';

export const ZFaultRule = z.object({
  /** Only requests of this account; all accounts when omitted. */
  subdomain: z.string().optional(),
  method: z.string().toUpperCase().optional(),
  /** Path after the account prefix, `*` matching any run of characters, e.g. `/api/v2/tickets/*`. */
  path: z.string().min(1),
  kind: z.enum(['latency', 'error', 'unauthorized', 'forbidden', 'drop']),
  status: z.number().int().min(500).max(599).default(503),
  latency_ms: z.number().int().min(0).max(120_000).default(0),
  /** How many matching requests it affects; unlimited when omitted. */
  times: z.number().int().positive().optional(),
  /** The share of matching requests it affects, drawn per request (a 5% error rate: 0.05); all when omitted. */
  rate: z.number().gt(0).max(1).optional(),
});
export type TFaultRule = z.infer<typeof ZFaultRule>;

interface ActiveFault {
  id: number;
  rule: TFaultRule;
  remaining: number | null;
  hits: number;
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

/** Faults injected per route through the control API. */
export class FaultInjector {
  private faults: ActiveFault[] = [];
  private nextId = 1;

  add(rule: TFaultRule): ActiveFault {
    const fault = { id: this.nextId++, rule, remaining: rule.times ?? null, hits: 0 };
    this.faults.push(fault);
    return fault;
  }

  list(): ActiveFault[] {
    return this.faults;
  }

  remove(id: number): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((f) => f.id !== id);
    return this.faults.length < before;
  }

  clear(): void {
    this.faults = [];
  }

  private take(subdomain: string | undefined, method: string, path: string): ActiveFault[] {
    const matched = this.faults.filter(
      (f) =>
        (f.rule.subdomain === undefined || f.rule.subdomain === subdomain) &&
        (f.rule.method === undefined || f.rule.method === method) &&
        globToRegExp(f.rule.path).test(path) &&
        (f.rule.rate === undefined || Math.random() < f.rule.rate),
    );
    for (const fault of matched) {
      fault.hits += 1;
      if (fault.remaining !== null) fault.remaining -= 1;
    }
    this.faults = this.faults.filter((f) => f.remaining === null || f.remaining > 0);
    return matched;
  }

  middleware(): RequestHandler {
    return async (req, res, next) => {
      if (req.path.startsWith('/_sandbox')) return next();
      const matched = this.take(subdomainOf(res), req.method, req.path);
      const delay = matched
        .filter((f) => f.rule.kind === 'latency')
        .reduce((sum, f) => sum + f.rule.latency_ms, 0);
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      const terminal = matched.find((f) => f.rule.kind !== 'latency');
      if (!terminal) return next();
      if (terminal.rule.kind === 'drop') {
        req.socket.destroy();
        return;
      }
      if (terminal.rule.kind === 'unauthorized') {
        res.status(401).json(INVALID_TOKEN);
        return;
      }
      if (terminal.rule.kind === 'forbidden') {
        // what a token without the scope (or an agent without the permission) is answered
        res.status(403).json(FORBIDDEN);
        return;
      }
      if (terminal.rule.status === 503) res.setHeader('Retry-After', '1');
      res.status(terminal.rule.status).json({
        error: 'ServiceUnavailable',
        description: `Injected fault (${terminal.rule.status})`,
      });
    };
  }
}
