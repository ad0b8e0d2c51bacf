import type { RequestHandler } from 'express';
import { escapeHtml } from '@incident-desk/threat-text';
import { FormReadError, formValue, readMultipartForm } from '../forms/read-multipart-form';
import { loadTicketView } from './load-ticket-view';
import type { TSessionStore } from './session-store';
import { SupportApiError } from './support-api';
import { renderTicketForm } from './ticket-form';
import { FormInputError, formUpdate } from './ticket-form-update';
import { subdomainOf } from './ticket-page-route';

export interface TicketFormContext {
  sessions: TSessionStore;
  maxUploadBytes: number;
  maxUploadFiles: number;
}

function workspaceErrorPage(message: string, back: string | null): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Agent workspace</title></head><body>` +
    `<p id="workspace-error">${escapeHtml(message)}</p>` +
    (back
      ? `<p><a id="workspace-back" href="${escapeHtml(back)}">Back to the ticket</a></p>`
      : '') +
    `</body></html>`
  );
}

/** Sent by host.js, which saves in place as Zendesk's workspace does (the app stays loaded). */
const IN_PLACE_SAVE_HEADER = 'x-workspace-save';

/**
 * `POST /tickets/:id`: the ticket form's Submit. The change goes through the Support API as the page's
 * agent (uploads first, then one ticket update), so triggers and webhooks fire as for any API update.
 * host.js posts it with `x-workspace-save: in-place` and gets JSON (`{formHtml}`, the form as the
 * saved ticket now reads, or `{error: {message}}`); a plain form post (no script) gets 303 back to
 * the ticket page.
 */
export function ticketFormHandler(ctx: TicketFormContext): RequestHandler {
  return async (req, res) => {
    const back = req.originalUrl;
    const inPlace = req.get(IN_PLACE_SAVE_HEADER) === 'in-place';
    const fail = (status: number, message: string) =>
      inPlace
        ? res.status(status).json({ error: { message } })
        : res
            .status(status)
            .type('html')
            .send(workspaceErrorPage(message, status === 404 ? null : back));
    if (!/^\d+$/.test(String(req.params.id))) return void fail(404, 'Ticket not found');
    const ticketId = Number(req.params.id);
    try {
      const form = await readMultipartForm(req, {
        fileBytes: ctx.maxUploadBytes,
        files: ctx.maxUploadFiles,
      });
      // The token of the page the form was rendered on: a cross-site post cannot know it.
      const session = ctx.sessions.get(formValue(form, 'form_token'));
      if (
        !session ||
        session.ticketId !== ticketId ||
        session.subdomain !== subdomainOf(req, res)
      ) {
        return void fail(403, 'This form has expired or is not from this page: reload the ticket.');
      }
      const { ticket, comment } = formUpdate(form);
      if (comment) {
        let token: string | undefined;
        for (const file of form.files) token = await session.api.uploadFile(file, token);
        ticket.comment = token ? { ...comment, uploads: [token] } : comment;
      }
      if (Object.keys(ticket).length) await session.api.updateTicket(ticketId, ticket);
      if (!inPlace) return void res.redirect(303, back);
      // the fields' was_* values must be the saved ones, or the next Submit would undo this one
      const view = await loadTicketView(session.api, ticketId);
      res.json({ formHtml: renderTicketForm(view, back, session.id) });
    } catch (err) {
      if (err instanceof FormReadError) return void fail(err.status, err.message);
      if (err instanceof FormInputError) return void fail(422, err.message);
      if (err instanceof SupportApiError)
        return void fail(err.status === 401 ? 502 : err.status, err.message);
      fail(502, (err as Error).message);
    }
  };
}
