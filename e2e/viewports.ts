import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/** The widths a changed screen is looked at in: a laptop and a small phone. */
export const REVIEW_WIDTHS = [
  { name: '1366', width: 1366, height: 800 },
  { name: '390', width: 390, height: 844 },
] as const;

/**
 * Saves a full-page screenshot of the page at 1366 and at 390 px wide under e2e/screenshots
 * (name-1366.png, name-390.png) and checks each with axe-core (no serious or critical
 * violation, colours judged at rest); the page is left at its first size.
 */
export async function screenshotWidths(page: Page, name: string): Promise<void> {
  const before = page.viewportSize();
  await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
  for (const size of REVIEW_WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    // The page has laid itself out again (media queries) before the picture.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.screenshot({ path: `screenshots/${name}-${size.name}.png`, fullPage: true });
    const results = await new AxeBuilder({ page }).analyze();
    const bad = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(bad.map((violation) => `${size.name}px ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
  }
  if (before) await page.setViewportSize(before);
  test.info().annotations.push({ type: 'screenshots', description: REVIEW_WIDTHS.map((size) => `${name}-${size.name}.png`).join(', ') });
}
