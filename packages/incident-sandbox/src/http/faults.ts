import type { RequestHandler } from 'express';
import { z } from 'zod';

export const ZFaultRequest = z.strictObject({
  /** HTTP method to match; absent = any. */
  method: z.string().toUpperCase().optional(),
  /** Path to match: exact, with :param segments, or ending in * for a prefix. */
  path: z.string().startsWith('/'),
  kind: z.enum(['latency', 'status', 'rate_limit', 'drop']),
  /** Delay before the fault (or before the normal answer for `latency`). */
  latencyMs: z.number().int().min(0).max(120_000).optional(),
  /** For `status`: the 5xx (or any 4xx/5xx) to answer with. */
  status: z.number().int().min(400).max(599).optional(),
  message: z.string().optional(),
  /** For `rate_limit`: value of the Retry-After header in seconds. */
  retryAfterSeconds: z.number().int().min(0).optional(),
  /** How many matching requests it affects; absent = until cleared. */
  times: z.number().int().min(1).optional(),
  /** The share of matching requests it affects, drawn per request (a 5% error rate: 0.05); absent = all. */
  rate: z.number().gt(0).max(1).optional(),
});
export type TFaultRequest = z.infer<typeof ZFaultRequest>;

export interface FaultRule extends TFaultRequest {
  id: string;
  hits: number;
}

function matcher(pattern: string): RegExp {
  const prefix = pattern.endsWith('*');
  const body = (prefix ? pattern.slice(0, -1) : pattern)
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${body}${prefix ? '' : '/?$'}`);
}

const DEFAULT_MESSAGES: Record<number, string> = {
  500: 'Internal server error',
  502: 'Bad gateway: history temporarily unavailable; retry later',
  503: 'Service temporarily unavailable; retry later',
  504: 'Gateway timeout',
};

/** Per-route faults injected through the control API: latency, error statuses, 429, dropped connections. */
export class FaultInjector {
  private rules: FaultRule[] = [];
  private counter = 0;

  add(request: TFaultRequest): FaultRule {
    const rule: FaultRule = { ...request, id: `fault_${++this.counter}`, hits: 0 };
    this.rules.push(rule);
    return rule;
  }

  list(): FaultRule[] {
    return this.rules;
  }

  remove(id: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.id !== id);
    return this.rules.length < before;
  }

  clear(): void {
    this.rules = [];
  }

  private take(method: string, path: string): FaultRule | undefined {
    const rule = this.rules.find(
      (r) =>
        (!r.method || r.method === method) &&
        matcher(r.path).test(path) &&
        (r.rate === undefined || Math.random() < r.rate),
    );
    if (!rule) return undefined;
    rule.hits += 1;
    if (rule.times !== undefined && rule.hits >= rule.times) this.remove(rule.id);
    return rule;
  }

  middleware(): RequestHandler {
    return (req, res, next) => {
      const rule = this.take(req.method, req.baseUrl + req.path);
      if (!rule) {
        next();
        return;
      }
      const act = () => {
        switch (rule.kind) {
          case 'latency':
            next();
            return;
          case 'drop':
            req.socket.destroy();
            return;
          case 'rate_limit':
            res
              .set('Retry-After', String(rule.retryAfterSeconds ?? 1))
              .status(429)
              .json({ message: rule.message ?? 'Too many requests' });
            return;
          case 'status': {
            const status = rule.status ?? 503;
            res
              .status(status)
              .json({ message: rule.message ?? DEFAULT_MESSAGES[status] ?? 'Injected failure' });
            return;
          }
        }
      };
      if (rule.latencyMs) setTimeout(act, rule.latencyMs);
      else act();
    };
  }
}
