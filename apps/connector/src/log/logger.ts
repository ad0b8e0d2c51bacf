// Every line the connector logs goes through here, as one JSON object per line (pino), and nothing
// in a line may carry a payload, a query's parameters, a token, a key or an email: the
// message and every field value pass through redact() before pino sees them. Errors are reduced to their name,
// code and the first line of their message, redacted and cut short: a database error object
// carries the query and its parameters (PGlite: `query`, `params`; pg: `detail`, `where`), and a
// Prisma error's message can print the call's arguments, so neither is ever printed whole.

import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';
import { currentLogContext } from './log-context';

type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** LOG_LEVEL: the least severe level written. */
export const LOG_THRESHOLDS = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
] as const;
type LogThreshold = (typeof LOG_THRESHOLDS)[number];
/** LOG_FORMAT: `json` (one object per line) or `text` (`message key=value …`, for a terminal). */
type LogFormat = 'json' | 'text';
export interface LogSettings {
  level: LogThreshold;
  format: LogFormat;
}

/** Where lines go (without their line break); default: stdout. */
export type LogSink = (line: string, level: LogLevel) => void;

type LogValue = string | number | boolean | null | undefined;

/** Values to add to the line; `error` is described by describeError. */
type LogFields = { error?: unknown } & Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: Record<string, LogValue>): void;
  info(message: string, fields?: Record<string, LogValue>): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const MAX_LINE = 600;
const MAX_ERROR_MESSAGE = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const REDACTIONS: [RegExp, string | ((match: string) => string)][] = [
  // JSON Web Tokens, sealed values (JWE) and other dotted tokens
  [/\beyJ[\w-]*\.[\w.-]*/g, '[token]'],
  [/\b(bearer|basic|token)\s+[\w.~+/=-]{8,}/gi, '$1 [redacted]'],
  [
    /((?:api[_-]?key|x-api-key|secret|password|passwd|authorization|token|access_token|refresh_token|client_secret|code)["']?\s*[:=]\s*["']?)[^\s"'&,;}]+/gi,
    '$1[redacted]',
  ],
  // emails
  [/[\w.!#$%&'*+/=?^`{|}~-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+/g, '[email]'],
  // opaque strings mixing letters and digits (keys, secrets, hashes); UUIDs stay readable
  [
    /[\w+/=.-]{20,}/g,
    (match) =>
      UUID.test(match) || !/\d/.test(match) || !/[a-z]/i.test(match) ? match : '[redacted]',
  ],
];

/**
 * The text (cut to a bounded length first, so every pattern runs on little) with tokens, keys,
 * secrets and emails replaced, and control characters escaped.
 */
export function redact(text: string): string {
  let out = cut(text, MAX_LINE);
  for (const [pattern, replacement] of REDACTIONS) {
    out =
      typeof replacement === 'string'
        ? out.replace(pattern, replacement)
        : out.replace(pattern, replacement);
  }
  // one line per entry: no injected line breaks, no terminal escapes
  // eslint-disable-next-line no-control-regex
  return out.replace(/[\u0000-\u001f\u007f]/g, ' ');
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** name, code and the first line of the message: never the error's other properties. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) {
    return typeof error === 'string'
      ? cut(redact(error.split('\n')[0] ?? ''), MAX_ERROR_MESSAGE)
      : typeof error;
  }
  const code = (error as { code?: unknown }).code;
  const firstLine =
    error.message
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line !== '') ?? '';
  const parts = [error.name];
  if (typeof code === 'string' || typeof code === 'number') parts.push(`[${redact(String(code))}]`);
  parts.push(cut(redact(firstLine), MAX_ERROR_MESSAGE));
  const cause = error.cause;
  if (cause instanceof Error) parts.push(`(cause: ${describeError(cause)})`);
  return parts.join(' ');
}

/** Field values as they may be written: errors described, text redacted, numbers kept. */
function safeFields(fields?: LogFields): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields ?? {})) {
    if (value === undefined) continue;
    if (key === 'error') out.error = describeError(value);
    else if (typeof value === 'number' || typeof value === 'boolean' || value === null)
      out[key] = value;
    else out[key] = redact(String(value as LogValue));
  }
  return out;
}

const LINE_LEVEL = /^\{"level":"(\w+)"/;
const SINK_LEVELS: Record<string, LogLevel> = {
  trace: 'debug',
  debug: 'debug',
  info: 'info',
  warn: 'warn',
  error: 'error',
  fatal: 'error',
};
/** What pino adds to every line that a terminal reader does not need. */
const TEXT_OMITS = new Set(['level', 'time', 'pid', 'hostname', 'msg']);

/** A JSON line as `message key=value …`, cut to a bounded length (LOG_FORMAT=text). */
function asText(line: string): string {
  const entry = JSON.parse(line) as Record<string, unknown>;
  const parts = [String(entry.msg ?? '')];
  for (const [key, value] of Object.entries(entry)) {
    if (TEXT_OMITS.has(key)) continue;
    parts.push(
      `${key}=${typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`,
    );
  }
  return cut(parts.join(' '), MAX_LINE);
}

function destinationOf(sink: LogSink, format: LogFormat): DestinationStream {
  return {
    write(chunk: string) {
      const line = chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk;
      const level = SINK_LEVELS[LINE_LEVEL.exec(line)?.[1] ?? 'info'] ?? 'info';
      sink(format === 'text' ? asText(line) : line, level);
    },
  };
}

// Written with process.stdout.write (synchronous for files and pipes on Linux), so lines are
// never lost at process.exit and anything capturing stdout sees them.
const stdoutSink: LogSink = (line) => {
  process.stdout.write(`${line}\n`);
};
let processSink: LogSink = stdoutSink;
const defaultSink: LogSink = (line, level) => processSink(line, level);

/**
 * Where the process-wide logger and loggers created without a sink write, stdout unless set (the
 * test suite keeps lines back, printing them when a test fails).
 */
export function setDefaultLogSink(sink: LogSink): void {
  processSink = sink;
}

/** The context's ids (log-context.ts) the call did not name itself. */
function contextFields(mergeObject: object): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(currentLogContext())) {
    if (value !== undefined && !(key in mergeObject)) out[key] = value;
  }
  return out;
}

function createPino(sink: LogSink, settings: LogSettings): PinoLogger {
  return pino(
    {
      level: settings.level,
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: (mergeObject) => contextFields(mergeObject),
    },
    destinationOf(sink, settings.format),
  );
}

/** A Logger over its pino instance (pino-http writes the request lines through the same one). */
export interface ConnectorLogger extends Logger {
  readonly pino: PinoLogger;
}

let processSettings: LogSettings = { level: 'info', format: 'json' };

/**
 * A logger writing to `sink`; a `(message) => void` log function (tests' option) is a sink too.
 * Its level and format default to the process's (configureLogging).
 */
export function createLogger(
  sink: LogSink = defaultSink,
  settings: LogSettings = processSettings,
): ConnectorLogger {
  const base = createPino(sink, settings);
  return {
    pino: base,
    debug: (message, fields) => base.debug(safeFields(fields), redact(message)),
    info: (message, fields) => base.info(safeFields(fields), redact(message)),
    warn: (message, fields) => base.warn(safeFields(fields), redact(message)),
    error: (message, fields) => base.error(safeFields(fields), redact(message)),
  };
}

let processLogger = createLogger();

/** Sets LOG_LEVEL and LOG_FORMAT for the process-wide logger and later createLogger calls. */
export function configureLogging(settings: LogSettings): void {
  processSettings = settings;
  processLogger = createLogger(defaultSink, settings);
}

/** The process-wide logger, for modules that are not handed one. */
export const logger: Logger = {
  debug: (message, fields) => processLogger.debug(message, fields),
  info: (message, fields) => processLogger.info(message, fields),
  warn: (message, fields) => processLogger.warn(message, fields),
  error: (message, fields) => processLogger.error(message, fields),
};
