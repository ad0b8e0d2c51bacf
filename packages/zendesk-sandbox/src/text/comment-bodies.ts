// Zendesk stores three renderings of a comment. The exact renderer is not public; this follows what the
// API visibly returns: paragraphs per blank line, <br> per line break, runs of spaces kept as "&nbsp; "
// pairs, which plain_body then carries as U+00A0 characters.

import { escapeHtml } from '@incident-desk/threat-text';

const NBSP = '\u00a0';

/** "a   b" -> "a&nbsp;&nbsp; b"; a leading space becomes &nbsp; so it survives HTML whitespace collapsing. */
function preserveSpaces(line: string): string {
  return line
    .replace(/ {2,}/g, (run) => '&nbsp;'.repeat(run.length - 1) + ' ')
    .replace(/^ /, '&nbsp;');
}

function htmlFromText(body: string): string {
  const normalised = body.replace(/\r\n?/g, '\n');
  const blocks = normalised.split(/\n\n/);
  const paragraphs = blocks.map((block) => {
    const inner = block
      .split('\n')
      .map((line) => preserveSpaces(escapeHtml(line)))
      .join('<br>');
    return `<p dir="auto">${inner === '' ? '&nbsp;' : inner}</p>`;
  });
  return `<div class="zd-comment" dir="auto">${paragraphs.join('')}</div>`;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&nbsp;/g, NBSP)
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Text of an HTML comment with paragraph breaks kept; &nbsp; stays a non-breaking space (plain_body). */
function plainFromHtml(html: string): string {
  const withBreaks = html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6]|blockquote|pre)>\s*/gi, '\n\n')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(withBreaks)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** `body` as Zendesk returns it for a comment written in HTML: the text with ordinary spaces. */
function textFromHtml(html: string): string {
  return plainFromHtml(html).replace(new RegExp(NBSP, 'g'), ' ');
}

export interface CommentBodies {
  body: string;
  html_body: string;
  plain_body: string;
}

export function renderCommentBodies(input: {
  body?: string | undefined;
  html_body?: string | undefined;
}): CommentBodies {
  if (input.html_body !== undefined && input.html_body !== '') {
    const html = input.html_body.startsWith('<div class="zd-comment"')
      ? input.html_body
      : `<div class="zd-comment" dir="auto">${input.html_body}</div>`;
    return { body: textFromHtml(html), html_body: html, plain_body: plainFromHtml(html) };
  }
  const body = input.body ?? '';
  const html = htmlFromText(body);
  return { body, html_body: html, plain_body: plainFromHtml(html) };
}
