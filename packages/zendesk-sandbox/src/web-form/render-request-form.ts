import { escapeHtml } from '@incident-desk/threat-text';

export interface RequestFormValues {
  name: string;
  email: string;
  subject: string;
  description: string;
}

export const EMPTY_REQUEST: RequestFormValues = {
  name: '',
  email: '',
  subject: '',
  description: '',
};

const STYLE = `
body{font-family:system-ui,sans-serif;color:#2f3941;max-width:720px;margin:24px auto;padding:0 16px}
label{display:block;margin:12px 0 4px;font-weight:600}
input[type=text],input[type=email],textarea{width:100%;box-sizing:border-box;padding:6px}
.error{color:#cc3340}.notice{background:#edf8f4;border:1px solid #aecfc2;padding:8px}
button{margin-top:16px;padding:8px 16px}
`;

/**
 * The help center's "Submit a request" page: an end user opens a ticket, as a Zendesk web form does.
 * Every value is escaped; `submitted` is a ticket number, `agentLink` where an agent opens it.
 */
export function renderRequestForm(input: {
  account: string;
  action: string;
  values: RequestFormValues;
  error?: string;
  submitted?: { id: number; agentLink: string };
}): string {
  const v = input.values;
  const notice = input.submitted
    ? `<p class="notice" id="request-submitted">Your request #${input.submitted.id} was submitted. ` +
      `<a href="${escapeHtml(input.submitted.agentLink)}">Open it in the agent workspace</a></p>`
    : '';
  const error = input.error
    ? `<p class="error" id="request-error">${escapeHtml(input.error)}</p>`
    : '';
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">` +
    `<title>Submit a request - ${escapeHtml(input.account)} (sandbox)</title><style>${STYLE}</style></head><body>` +
    `<h1>Submit a request</h1><p>Help center of ${escapeHtml(input.account)} (Zendesk sandbox)</p>${notice}${error}` +
    `<form id="request-form" method="post" action="${escapeHtml(input.action)}" enctype="multipart/form-data">` +
    `<label for="request-name">Your name</label>` +
    `<input type="text" id="request-name" name="name" value="${escapeHtml(v.name)}">` +
    `<label for="request-email">Your email address</label>` +
    `<input type="email" id="request-email" name="email" required value="${escapeHtml(v.email)}">` +
    `<label for="request-subject">Subject</label>` +
    `<input type="text" id="request-subject" name="subject" required value="${escapeHtml(v.subject)}">` +
    `<label for="request-description">Description</label>` +
    `<textarea id="request-description" name="description" rows="8" required>${escapeHtml(v.description)}</textarea>` +
    `<label for="request-attachments">Attachments</label>` +
    `<input type="file" id="request-attachments" name="attachments" multiple>` +
    `<button type="submit" id="request-submit">Submit</button></form></body></html>`
  );
}
