import type { RequestHandler } from 'express';
import { subdomainOf } from '../api/context';
import type { SandboxState } from '../state/sandbox-state';

/** Zendesk's per-account requests-per-minute limit, as a fixed window per account. */
export function rateLimiter(state: SandboxState): RequestHandler {
  const windows = new Map<string, { start: number; count: number }>();
  return (req, res, next) => {
    const subdomain = subdomainOf(res);
    const account = subdomain === undefined ? undefined : state.account(subdomain);
    if (!account || !req.path.startsWith('/api/v2/')) return next();
    const { requestsPerMinute: limit, windowMs } = account.rateLimit;
    const now = state.now();
    let window = windows.get(account.subdomain);
    if (!window || now - window.start >= windowMs) {
      window = { start: now, count: 0 };
      windows.set(account.subdomain, window);
    }
    window.count += 1;
    const remaining = Math.max(0, limit - window.count);
    const resetSeconds = Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
    res.setHeader('X-Rate-Limit', String(limit));
    res.setHeader('X-Rate-Limit-Remaining', String(remaining));
    if (req.path.startsWith('/api/v2/tickets')) {
      res.setHeader('ratelimit-limit', String(limit));
      res.setHeader('ratelimit-remaining', String(remaining));
      res.setHeader('ratelimit-reset', String(resetSeconds));
    }
    if (window.count > limit) {
      res.setHeader('Retry-After', String(resetSeconds));
      res.status(429).json({ error: 'APIRateLimitExceeded', description: 'Number of allowed API requests per minute exceeded' });
      return;
    }
    next();
  };
}
