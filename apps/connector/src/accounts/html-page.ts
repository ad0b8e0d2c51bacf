// Minimal server-rendered pages of the install flow.
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export function htmlPage(title: string, bodyHtml: string): string {
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>${escapeHtml(title)} - incident-desk</title></head>
  <body>
    <h1>${escapeHtml(title)}</h1>
    ${bodyHtml}
  </body>
</html>`;
}

export function messagePage(title: string, message: string, id: 'error' | 'success'): string {
  return htmlPage(title, `<p id="${id}">${escapeHtml(message)}</p>`);
}
