// Minimal server-rendered pages of the install flow, in Zendesk Garden's look. The stylesheet is a
// constant, allowed by its hash in the pages' CSP (page-protection.ts): no other style, no script.
import { createHash } from 'node:crypto';
import { escapeHtml } from '@incident-desk/threat-text';

export { escapeHtml };

// Garden's base: system font stack, grey-800 text, blue-600 primary, 4px radius, 40px controls.
export const PAGE_STYLE = [
  '*,*::before,*::after{box-sizing:border-box}',
  'html{-webkit-text-size-adjust:100%}',
  'body{margin:0;background:#f8f9f9;color:#2f3941;font-family:system-ui,-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Oxygen-Sans,Ubuntu,Cantarell,"Helvetica Neue",Arial,sans-serif;font-size:14px;line-height:20px}',
  'main{max-width:560px;margin:48px auto;padding:32px;background:#fff;border:1px solid #d8dcde;border-radius:8px;box-shadow:0 16px 24px rgba(4,68,77,.08)}',
  'h1{margin:0 0 16px;font-size:22px;line-height:28px;font-weight:600}',
  'p{margin:0 0 12px}',
  'a{color:#1f73b7}a:hover{color:#144a75}',
  'label{display:block;margin-bottom:4px;font-weight:600}',
  '.hint{display:block;margin-bottom:8px;color:#68737d;font-weight:400}',
  'input{display:block;width:100%;min-height:40px;margin-bottom:16px;padding:9px 12px;border:1px solid #d8dcde;border-radius:4px;font:inherit;color:inherit}',
  'input:focus{outline:none;border-color:#5293c7;box-shadow:0 0 0 3px rgba(31,115,183,.35)}',
  'button{min-height:40px;padding:0 20px;border:1px solid #1f73b7;border-radius:4px;background:#1f73b7;color:#fff;font:inherit;font-weight:600;cursor:pointer}',
  'button:hover{background:#144a75;border-color:#144a75}',
  'button:focus-visible{outline:none;box-shadow:0 0 0 3px rgba(31,115,183,.35)}',
  '#error{padding:12px 16px;border:1px solid #f5b5ba;border-radius:4px;background:#fff0f1;color:#8c232c}',
  '#success{padding:12px 16px;border:1px solid #aecfc2;border-radius:4px;background:#edf8f4;color:#186146}',
].join('');

/** The CSP source that allows PAGE_STYLE and nothing else. */
export const PAGE_STYLE_SOURCE = `'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'`;

export function htmlPage(title: string, bodyHtml: string): string {
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} - incident-desk</title><style>${PAGE_STYLE}</style></head>
  <body>
    <main>
    <h1>${escapeHtml(title)}</h1>
    ${bodyHtml}
    </main>
  </body>
</html>`;
}

export function messagePage(title: string, message: string, id: 'error' | 'success'): string {
  return htmlPage(title, `<p id="${id}">${escapeHtml(message)}</p>`);
}

/**
 * The subdomain field of the install and sign-in forms: a pasted Zendesk URL is accepted too. After
 * a refusal it keeps what was typed (escaped) and points to the problem.
 */
export function subdomainField(typed?: string, refused = false): string {
  const value = typed === undefined ? '' : ` value="${escapeHtml(typed.slice(0, 300))}"`;
  const described = refused ? 'error subdomain-hint' : 'subdomain-hint';
  return `<label for="subdomain">Zendesk subdomain</label>
      <span class="hint" id="subdomain-hint">e.g. acme, or your Zendesk address such as https://acme.zendesk.com</span>
      <input name="subdomain" id="subdomain" required autocomplete="off" aria-describedby="${described}"${refused ? ' aria-invalid="true"' : ''}${value}>`;
}
