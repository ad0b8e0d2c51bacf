// Whether a page rendered for a French admin still shows English: any English text of the named
// message sections (that French says differently) in the page's text or its accessible labels.
import { expect } from 'vitest';
import { en, type Messages } from '../src/i18n/en';
import { fr } from '../src/i18n/fr';

/** The English texts of these sections that French says differently (plain sentences only). */
function englishOf(...sections: (keyof Messages)[]): string[] {
  const texts = (value: unknown): string[] =>
    typeof value === 'string'
      ? [value]
      : value !== null && typeof value === 'object'
        ? Object.values(value).flatMap(texts)
        : [];
  const french = new Set(sections.flatMap((section) => texts(fr[section])));
  return sections
    .flatMap((section) => texts(en[section]))
    .filter((text) => text.length > 3 && !french.has(text));
}

/** `text` as a whole phrase of `page`: "Sync" is not in "Synchronisations". */
function holds(page: string, text: string): boolean {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u').test(page);
}

export function expectNoEnglish(...sections: (keyof Messages)[]) {
  // text node by text node: adjacent elements' texts run together in textContent
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const nodes: string[] = [];
  while (walker.nextNode()) nodes.push(walker.currentNode.nodeValue ?? '');
  const page = nodes.join('\n');
  const labels = [...document.querySelectorAll('[aria-label]')].map((el) =>
    el.getAttribute('aria-label'),
  );
  const left = englishOf(...sections).filter((text) => holds(page, text) || labels.includes(text));
  expect(left).toEqual([]);
}
