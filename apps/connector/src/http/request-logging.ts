// One line per request (pino-http) and its metrics. Each request gets an id: the caller's
// X-Request-Id when it is a sane token, else a new UUID; it is echoed in the answer, on every line
// logged while the request is handled (log-context.ts) and in the jobs the request enqueues. A
// refused request's line (warn) names its reason: the error code the route answered with, or one
// named after the status (a rate limit's 429, an unknown route's 404).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { pinoHttp } from 'pino-http';
import type { ConnectorMetrics } from '../metrics';
import { type ConnectorLogger, describeError, redact, withLogContext } from '../log';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,100}$/;
/** Asked every few seconds by orchestrators and Prometheus: their answers are logged at debug. */
const PROBES = new Set(['/livez', '/readyz', '/healthz', '/metrics']);
/**
 * Refusals in a page's ordinary course, logged at info, not warn: the admin page asking whether it
 * is signed in before anyone signed in.
 */
const ORDINARY_REFUSALS = new Set(['not_signed_in']);

/** The caller's id when it is a short token of safe characters; otherwise a new one. */
function requestIdFor(incoming: string | string[] | undefined): string {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value !== undefined && SANE_REQUEST_ID.test(value) ? value : randomUUID();
}

const STATUS_REASONS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  429: 'rate_limited',
  500: 'internal_error',
  501: 'not_implemented',
  503: 'unavailable',
};

/** Why a request was refused: the route's error code, else the status's name. */
function refusalReasonOf(res: ServerResponse): string {
  const locals = (res as Response).locals as Record<string, unknown> | undefined;
  const code = locals?.errorCode;
  if (typeof code === 'string') return code;
  return STATUS_REASONS[res.statusCode] ?? `status_${res.statusCode}`;
}

/**
 * Marks a route's requests: their line is "<what> refused" when refused, and, for a webhook
 * receiver, the verdict is counted. The account is named when the route found it
 * (`res.locals.accountId`).
 */
export function labelRequests(what: string, receiver?: 'incident' | 'zendesk'): RequestHandler {
  return (_req, res, next) => {
    res.locals.requestLabel = what;
    if (receiver) res.locals.webhookReceiver = receiver;
    next();
  };
}

/** The route as declared (`/sidebar/tickets/:ticketId`), never the path's values. */
function routeOf(req: Request, res: Response): string {
  if (req.route && typeof req.route.path === 'string') return `${req.baseUrl}${req.route.path}`;
  if (typeof res.locals.metricsRoute === 'string') return res.locals.metricsRoute;
  return res.statusCode === 404 ? 'unmatched' : 'other';
}

function pathOf(req: IncomingMessage): string {
  const url = (req as Request).originalUrl ?? req.url ?? '';
  return redact(url.split('?')[0] ?? '');
}

function lineFields(req: IncomingMessage, res: ServerResponse, responseTime: number) {
  const locals = (res as Response).locals as Record<string, unknown>;
  const refused = res.statusCode >= 400;
  return {
    reqId: String(req.id),
    status: res.statusCode,
    durationMs: responseTime,
    ...(refused ? { reason: refusalReasonOf(res) } : {}),
    ...(typeof locals.accountId === 'string' ? { accountId: locals.accountId } : {}),
  };
}

function messageOf(res: ServerResponse, fallback: string): string {
  const label = (res as Response).locals?.requestLabel;
  const what = typeof label === 'string' ? label : 'request';
  return res.statusCode >= 400 ? `${what} refused` : fallback;
}

export function requestLogging(
  logger: ConnectorLogger,
  metrics?: ConnectorMetrics,
): RequestHandler[] {
  const httpLogger = pinoHttp({
    logger: logger.pino,
    genReqId: (req, res) => {
      const id = requestIdFor(req.headers['x-request-id']);
      res.setHeader('X-Request-Id', id);
      return id;
    },
    serializers: {
      req: (req: { raw: IncomingMessage; method: string }) => ({
        method: req.method,
        path: pathOf(req.raw),
      }),
    },
    customLogLevel: (req, res, error) => {
      if (error || res.statusCode >= 500) return 'error';
      if (res.statusCode >= 400)
        return ORDINARY_REFUSALS.has(refusalReasonOf(res)) ? 'info' : 'warn';
      return PROBES.has(pathOf(req)) ? 'debug' : 'info';
    },
    customSuccessMessage: (_req, res) => messageOf(res, 'request completed'),
    customErrorMessage: (_req, res) => messageOf(res, 'request failed'),
    customSuccessObject: (req, res, value: { responseTime: number }) =>
      lineFields(req, res, value.responseTime),
    customErrorObject: (req, res, error, value: { responseTime: number }) => ({
      ...lineFields(req, res, value.responseTime),
      error: describeError(error),
    }),
  });

  const context: RequestHandler = (req, res, next) => {
    const reqContext = { reqId: String(req.id) };
    // Body parsers resume from the socket's events, outside this request's async context: the
    // request's own events are replayed inside it, so what runs after parsing keeps the id.
    const emit = req.emit;
    req.emit = function (this: Request, ...args: Parameters<typeof emit>) {
      return withLogContext(reqContext, () => emit.apply(this, args));
    } as typeof req.emit;
    const started = performance.now();
    res.once('finish', () => {
      if (!metrics) return;
      metrics.httpRequest(
        { method: req.method, route: routeOf(req, res), status: res.statusCode },
        (performance.now() - started) / 1000,
      );
      const receiver = res.locals.webhookReceiver as 'incident' | 'zendesk' | undefined;
      if (receiver) {
        const verdict =
          res.statusCode < 400
            ? typeof res.locals.verdict === 'string'
              ? res.locals.verdict
              : 'accepted'
            : refusalReasonOf(res);
        metrics.webhookVerdict(receiver, verdict);
      }
    });
    withLogContext(reqContext, next);
  };
  return [httpLogger, context];
}
