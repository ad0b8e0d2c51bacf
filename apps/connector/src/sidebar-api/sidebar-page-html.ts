// What the sidebar's page answers: the built page with a block the page reads (its session, or why
// it cannot open), framed by the account's agent workspace only; or the one refusal page.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Response } from 'express';

const pageCsp = (frameAncestor: string) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    // Garden's styled-components inserts <style> elements at run time
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestor}`,
  ].join('; ');

const REFUSED_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>incident-desk</title>' +
  '<p id="sidebar-refused">This app could not be verified as opened by Zendesk. Reload the ticket in Zendesk.</p></html>';

export function refuse(res: Response): void {
  res
    .status(401)
    .set('Cache-Control', 'no-store')
    .set('Content-Security-Policy', "default-src 'none'; frame-ancestors *")
    .set('X-Content-Type-Options', 'nosniff')
    .type('html')
    .send(REFUSED_PAGE);
}

/** A JSON block the page reads, never executed, escaped for a script tag. */
export function jsonBlock(id: string, value: unknown): string {
  const json = JSON.stringify(value).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${id}">${json}</script>`;
}

/** The session as the page reads it. */
export function sessionBlock(session: { token: string; expiresAt: Date; capAt: Date }): string {
  return jsonBlock('incident-desk-session', {
    token: session.token,
    expiresAt: session.expiresAt.toISOString(),
    capAt: session.capAt.toISOString(),
  });
}

/** The built page, framed by the account's Zendesk only, with what `fill` adds to it. */
export async function sendPage(
  res: Response,
  page: { distDir: string; frameAncestor: string },
  status: number,
  fill: (html: string) => string,
): Promise<void> {
  let html: string;
  try {
    html = await readFile(path.join(page.distDir, 'assets', 'iframe.html'), 'utf8');
  } catch {
    res
      .status(503)
      .type('text')
      .send('The sidebar is not built: npm run build -w @incident-desk/sidebar.');
    return;
  }
  res
    .status(status)
    .set('Cache-Control', 'no-store')
    .set('Content-Security-Policy', pageCsp(page.frameAncestor))
    .set('X-Content-Type-Options', 'nosniff')
    .set('Referrer-Policy', 'no-referrer')
    .type('html')
    .send(fill(html));
}
