import { readFile } from 'node:fs/promises';
import { formatMonth, uiText } from '@kestrel/shared';
import { demo, DEMO_PASSWORD, expect, loginThroughForm, test } from '../fixtures.ts';
import { lookAt } from '../look.ts';

/*
 * Monthly statements in the browser (issue 26): My Account → Statements lists the months, the
 * current one "so far", and downloads a month's PDF and its signed JSON with the session.
 * Pictures at desktop and phone width; axe finds nothing serious.
 */

const t = uiText.myAccount;

test('demo alice downloads this month\'s statement as PDF and as signed JSON from My Account → Statements', async ({ page }) => {
  await loginThroughForm(page, demo.alice.email, DEMO_PASSWORD);
  await page.goto('/my-account');
  await page.getByRole('tab', { name: t.statements }).click();
  await expect(page).toHaveURL(/\/my-account\?tab=statements$/);
  const month = new Date().toISOString().slice(0, 7);
  const name = `${formatMonth(month)} (${t.statementSoFar})`;
  const list = page.getByRole('list', { name: t.statements });
  await expect(list.getByRole('listitem').first()).toContainText(name);
  await lookAt(page, 'my-account-statements');

  const pdfDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: `${t.downloadPdf}: ${name}` }).click();
  const pdf = await pdfDownload;
  expect(pdf.suggestedFilename()).toMatch(new RegExp(`^statement-\\d+-${month}\\.pdf$`));
  expect((await readFile(await pdf.path())).subarray(0, 5).toString()).toBe('%PDF-');
  await expect(page.getByRole('status').filter({ hasText: /^Downloaded statement-\d+-.*\.pdf$/ })).toBeVisible();

  const jsonDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: `${t.downloadJson}: ${name}` }).click();
  const json = await jsonDownload;
  expect(json.suggestedFilename()).toMatch(new RegExp(`^statement-\\d+-${month}\\.json$`));
  const statement = JSON.parse(await readFile(await json.path(), 'utf8')) as { month: string; complete: boolean; openingBalanceCents: string; closingBalanceCents: string; movements: { netCents: string }[] };
  expect(statement).toMatchObject({ month, complete: false });
  // The demo's opening balance and every movement since add up to the closing balance, to the cent.
  expect(statement.movements.length).toBeGreaterThan(0);
  const total = statement.movements.reduce((sum, movement) => sum + BigInt(movement.netCents), BigInt(statement.openingBalanceCents));
  expect(total.toString()).toBe(statement.closingBalanceCents);
});
