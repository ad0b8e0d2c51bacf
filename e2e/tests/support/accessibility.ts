// axe-core in the running page (and the frames it names): no serious or critical violation.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Ends every transition at once in all frames: axe must judge colours, not a fade half done. */
async function settleTransitions(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  for (const frame of page.frames()) {
    await frame
      .addStyleTag({
        content:
          '*, *::before, *::after { transition: none !important; animation: none !important; }',
      })
      .catch(() => undefined); // a frame that went away meanwhile has nothing to judge
  }
}

export async function expectAccessible(page: Page, what: string, include?: string): Promise<void> {
  await settleTransitions(page);
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  const { violations } = await (include ? builder.include(include) : builder).analyze();
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
    }));
  expect(serious, `serious or critical accessibility violations on ${what}`).toEqual([]);
}
