// A sidebar state as an agent meets it in a 320 px apps panel: nothing overflows sideways, the
// status and its one action lie within the frame's first 300 px, axe-core finds no serious or
// critical violation, and a screenshot is kept under e2e/artifacts/sidebar-320/ (git-ignored).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from './accessibility';
import { screenshotTo, setPanelWidth } from './scenario';

const SIDEBAR = '#zaf-app-frame';
const ARTIFACTS = fileURLToPath(new URL('../../artifacts/sidebar-320/', import.meta.url));
/** How far down the frame the status and its action must be: the panel's first screen. */
const FIRST_SCREEN_PX = 300;

/** The bottom edge of an element of the sidebar frame, from the top of the frame's document. */
function bottomInFrame(element: Locator): Promise<number> {
  return element.evaluate((node) => node.getBoundingClientRect().bottom + window.scrollY);
}

export interface NarrowState {
  /** The screenshot's name: `<name>.png`. */
  name: string;
  /** What must be in the first screen: the status, and the state's one action when it has one. */
  firstScreen: Locator[];
}

/**
 * Puts the sidebar in a 320 px panel and checks the state there: no horizontal overflow, each
 * `firstScreen` element visible and ending within FIRST_SCREEN_PX of the frame's top, no serious
 * or critical axe violation; then keeps the screenshot.
 */
export async function expectNarrowState(page: Page, state: NarrowState): Promise<void> {
  await setPanelWidth(page, 320);
  const frame = page.frameLocator(SIDEBAR);
  await expect
    .poll(() => frame.locator('html').evaluate((html) => html.clientWidth), {
      message: `${state.name}: the sidebar frame is 320 px wide`,
    })
    .toBe(320);
  await expect
    .poll(() => frame.locator('body').evaluate((b) => b.scrollWidth <= b.clientWidth + 1), {
      message: `${state.name}: no horizontal overflow at 320 px`,
    })
    .toBe(true);
  for (const element of state.firstScreen) {
    await expect(element).toBeVisible();
    expect(
      await bottomInFrame(element),
      `${state.name}: ${element.toString()} within the first ${FIRST_SCREEN_PX} px`,
    ).toBeLessThanOrEqual(FIRST_SCREEN_PX);
  }
  await expectAccessible(page, `${state.name} at 320 px`, SIDEBAR);
  mkdirSync(ARTIFACTS, { recursive: true });
  await screenshotTo(page, path.join(ARTIFACTS, `${state.name}.png`));
}
