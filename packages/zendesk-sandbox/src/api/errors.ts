import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { SandboxError } from '../state/sandbox-state';

export const INVALID_TOKEN = {
  error: 'invalid_token',
  error_description:
    'The access token provided is expired, revoked, malformed or invalid for other reasons.',
};

export const FORBIDDEN = {
  error: 'Forbidden',
  description:
    'You do not have access to this page. Please contact the account owner of this help desk for further help.',
};

export function invalidToken(): SandboxError {
  return new SandboxError(401, INVALID_TOKEN);
}

export function forbidden(): SandboxError {
  return new SandboxError(403, FORBIDDEN);
}

/**
 * A token without the scope an endpoint needs. Zendesk names the scope in the description
 * ("You are missing the following required scopes: read", its answer to `GET /ticket_fields` with
 * a `tickets:read` token); a role the endpoint refuses gets FORBIDDEN's wording instead.
 */
export function missingScope(scope: string): SandboxError {
  return new SandboxError(403, {
    error: 'Forbidden',
    description: `You are missing the following required scopes: ${scope}`,
  });
}

export function badRequest(description: string): SandboxError {
  return new SandboxError(400, { error: 'InvalidEndpoint', description });
}

export const notFoundRoute: RequestHandler = (_req, res) => {
  res.status(404).json({ error: 'InvalidEndpoint', description: 'Not found' });
};

export const errorHandler: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  if (res.headersSent) return next(error);
  if (error instanceof SandboxError) {
    if (error.status === 401 && error.body.error === 'invalid_token') {
      res.setHeader(
        'WWW-Authenticate',
        'Bearer realm="Doorkeeper", error="invalid_token", error_description="The access token is invalid"',
      );
    }
    for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    res.status(error.status).json(error.body);
    return;
  }
  if (error instanceof ZodError) {
    const details: Record<string, { description: string; error: string }[]> = {};
    for (const issue of error.issues) {
      const key = issue.path.map(String).join('.') || 'base';
      (details[key] ??= []).push({
        description: `${key}: ${issue.message}`,
        error: 'InvalidValue',
      });
    }
    res
      .status(422)
      .json({ error: 'RecordInvalid', description: 'Record validation errors', details });
    return;
  }
  const status =
    typeof error === 'object' &&
    error !== null &&
    'status' in error &&
    typeof error.status === 'number'
      ? error.status
      : 500;
  if (status === 413) {
    res
      .status(413)
      .json({ error: 'RequestEntityTooLarge', description: 'The request body is too large' });
    return;
  }
  if (status >= 400 && status < 500) {
    res
      .status(400)
      .json({ error: 'Unprocessable Entity', description: 'The request body could not be parsed' });
    return;
  }
  console.error('zendesk-sandbox: unhandled error', error);
  res
    .status(500)
    .json({ error: 'InternalError', description: 'Something went wrong in the sandbox' });
};
