import { escapeHtml } from '@incident-desk/threat-text';

/** A template tag that escapes every interpolated value (named `esc`: formatters leave it alone). */
export function esc(strings: TemplateStringsArray, ...values: unknown[]): string {
  return strings.reduce(
    (out, s, i) => out + s + (i < values.length ? escapeHtml(values[i] ?? '') : ''),
    '',
  );
}

const STYLE = `
body{font-family:system-ui,sans-serif;color:#2f3941;margin:0 auto;max-width:1100px;padding:16px}
table{border-collapse:collapse;width:100%;margin:8px 0}th,td{border-bottom:1px solid #e9ebed;text-align:left;padding:4px 6px;vertical-align:top}
.status{display:inline-block;background:#1f73b7;color:#fff;border-radius:4px;padding:1px 6px;font-size:12px}
.failed{color:#cc3340}.delivered{color:#038153}.pending{color:#ad5e18}
form{margin:6px 0}fieldset{border:1px solid #d8dcde;margin:12px 0}
button{margin:2px}pre{white-space:pre-wrap;background:#f8f9f9;padding:4px;margin:0}
.error{color:#cc3340}
`;

/** A console page: `body` must already be escaped (built with `esc`). */
export function consolePage(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">` +
    esc`<title>${title} - incident sandbox</title>` +
    `<style>${STYLE}</style></head><body>` +
    `<p><a href="/_sandbox/console/">Analyst console</a> · incident sandbox</p>${body}</body></html>`
  );
}
