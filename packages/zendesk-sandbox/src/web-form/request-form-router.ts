import { Router, type Request, type Response } from 'express';
import { FormReadError, formValue, readMultipartForm } from '../forms/read-multipart-form';
import type { SandboxContext } from '../api/context';
import { subdomainOf } from '../api/context';
import { addUpload } from '../state/attachments';
import type { AccountRecord, UserRecord } from '../state/model';
import { SandboxError } from '../state/sandbox-state';
import { EMPTY_REQUEST, renderRequestForm, type RequestFormValues } from './render-request-form';

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

export interface RequestFormLimits {
  maxUploadBytes: number;
  maxUploadFiles: number;
}

/** Browsers say where a post comes from; a request from another site is refused (the form's CSRF check). */
function crossSite(req: Request): boolean {
  if (req.get('sec-fetch-site') === 'cross-site') return true;
  const origin = req.get('origin');
  if (!origin || origin === 'null') return origin === 'null';
  return origin !== `${req.protocol}://${req.get('host') ?? ''}`;
}

function endUserFor(
  ctx: SandboxContext,
  account: AccountRecord,
  name: string,
  email: string,
): UserRecord {
  const address = email.toLowerCase();
  for (const user of account.users.values()) if (user.email === address) return user;
  return ctx.state.createUser(account, {
    name: name || (address.split('@')[0] ?? address),
    email: address,
    role: 'end-user',
  });
}

/**
 * `/hc/requests/new`: the help center's request form. A post opens a ticket as the end user who
 * submits it (found or created by email), through the ticket service the API uses, channel `web`,
 * so triggers and webhooks fire as for any new ticket.
 */
export function requestFormRouter(ctx: SandboxContext, limits: RequestFormLimits): Router {
  const router = Router();

  const accountOf = (res: Response): AccountRecord | undefined =>
    ctx.state.account(subdomainOf(res) ?? 'demo');
  const page = (
    res: Response,
    status: number,
    account: string,
    body: Parameters<typeof renderRequestForm>[0],
  ) =>
    res
      .status(status)
      .set('cache-control', 'no-store')
      .type('html')
      .send(renderRequestForm({ ...body, account }));
  const notFound = (res: Response) =>
    res
      .status(404)
      .type('html')
      .send('<!doctype html><title>Not found</title><p>No such help center.</p>');

  router.get('/hc/requests/new', (req, res) => {
    const account = accountOf(res);
    if (!account) return void notFound(res);
    const submitted =
      typeof req.query.submitted === 'string' && /^\d+$/.test(req.query.submitted)
        ? Number(req.query.submitted)
        : null;
    const ticket = submitted === null ? undefined : account.tickets.get(submitted);
    page(res, 200, account.subdomain, {
      account: account.subdomain,
      action: req.originalUrl.split('?')[0] ?? req.originalUrl,
      values: EMPTY_REQUEST,
      ...(ticket
        ? {
            submitted: {
              id: ticket.id,
              agentLink: `${req.baseUrl}/agent/tickets/${ticket.id}${subdomainOf(res) ? `?subdomain=${account.subdomain}` : ''}`,
            },
          }
        : {}),
    });
  });

  router.post('/hc/requests/new', async (req, res) => {
    const account = accountOf(res);
    if (!account) return void notFound(res);
    const action = req.originalUrl.split('?')[0] ?? req.originalUrl;
    if (crossSite(req)) {
      res
        .status(403)
        .type('html')
        .send(
          '<!doctype html><title>Forbidden</title><p id="request-error">This form only accepts posts from its own page.</p>',
        );
      return;
    }
    let values: RequestFormValues = EMPTY_REQUEST;
    try {
      const form = await readMultipartForm(req, {
        fileBytes: limits.maxUploadBytes,
        files: limits.maxUploadFiles,
      });
      values = {
        name: formValue(form, 'name').trim(),
        email: formValue(form, 'email').trim(),
        subject: formValue(form, 'subject').trim(),
        description: formValue(form, 'description'),
      };
      const missing = !EMAIL.test(values.email)
        ? 'a valid email address'
        : values.subject === ''
          ? 'a subject'
          : values.description.trim() === ''
            ? 'a description'
            : null;
      if (missing)
        return void page(res, 422, account.subdomain, {
          account: account.subdomain,
          action,
          values,
          error: `Please enter ${missing}.`,
        });
      const requester = endUserFor(ctx, account, values.name, values.email);
      let token: string | undefined;
      for (const file of form.files)
        token = addUpload(ctx.state, account, file, token)?.upload.token;
      const change = ctx.tickets.create(
        account,
        {
          subject: values.subject,
          comment: { body: values.description, ...(token ? { uploads: [token] } : {}) },
        },
        requester,
        'web',
      );
      res.redirect(303, `${action}?submitted=${change.ticket.id}`);
    } catch (err) {
      if (!(err instanceof FormReadError || err instanceof SandboxError)) throw err;
      page(res, err.status, account.subdomain, {
        account: account.subdomain,
        action,
        values,
        error: err.message,
      });
    }
  });

  return router;
}
