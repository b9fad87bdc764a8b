import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/*
 * Looking at a page the way the journeys must: axe-core finds no serious or critical violation,
 * and full-page pictures at desktop (1366 px) and phone (390 px) width go to screenshots/ for
 * people to open.
 */

/**
 * No serious or critical axe-core violation on the page as it stands. Colours are judged at
 * rest: a button leaving its loading state fades its text back in over 150 ms, and a contrast
 * reading taken mid-fade is not what anyone sees, so transitions and animations are turned off
 * for the rest of the page's life.
 */
export async function expectAccessible(page: Page): Promise<void> {
  await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(bad.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
}

const WIDTHS = [
  [1366, 800],
  [390, 844],
] as const;

/** Full-page pictures at 1366 and 390 px (`screenshots/<name>-<width>-<project>.png`), then back to the size the page had. */
export async function screenshotsAtWidths(page: Page, name: string, options: { checkAccessible?: boolean } = {}): Promise<void> {
  const before = page.viewportSize();
  const project = test.info().project.name;
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await page.evaluate(() => window.scrollTo(0, 0));
    if (options.checkAccessible) await expectAccessible(page);
    await page.screenshot({ path: `screenshots/${name}-${width}-${project}.png`, fullPage: true });
  }
  if (before) await page.setViewportSize(before);
}

/** Both at each width: axe finds nothing serious, then the picture. */
export const lookAt = (page: Page, name: string) => screenshotsAtWidths(page, name, { checkAccessible: true });
