import type { APIRequestContext, Page } from '@playwright/test';
import { demo, DEMO_PASSWORD, expect, loginThroughForm, test, uniqueId } from '../fixtures.ts';
import { lookAt } from '../look.ts';
import { E2E_OPERATOR } from '../operator.ts';
import { demoStoreCredentials } from '../wallet.ts';

/*
 * The charts (issue 26): demo bob's dashboard draws his balance and money in / out after its
 * counters have painted (the drawing code is a chunk of its own, held back here to prove it),
 * his store's page its payments with the success rate, and the operator console its payments
 * and callback backlog. A drawing loads once its chart is on the screen (scrolled to here where
 * it may be below the fold). Pictures at 1366 and 390 px, axe on each.
 */

type Store = Awaited<ReturnType<typeof demoStoreCredentials>>;

async function payment(request: APIRequestContext, store: Store, amount: number, card: string): Promise<number> {
  const created = await request.post('/v1/payment/web-pay', {
    headers: store,
    data: {
      orderId: uniqueId('chart-order'),
      currency: 'USD',
      amount,
      customerName: 'Casey Chart',
      customerEmail: 'casey@example.test',
      customerPhone: '+15550100077',
      customerAddress: '7 Graph Street',
      productName: 'Bike bell',
      cancelUrl: 'https://bobs-bikes.example/cart',
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const { paymentId } = (await created.json()).data as { paymentId: string };
  const paid = await request.post(`/v1/payment/complete/${paymentId}`, { data: { type: 'card', number: card, expiresIn: '12/34', cvc: '123', cardHolderName: 'Casey Chart' } });
  return paid.status();
}

/** At phone width nothing (a chart, its hidden table) makes the page wider than the screen. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (before) await page.setViewportSize(before);
}

/** The drawing (uPlot's canvas) inside the chart with this heading. */
const drawingOf = (page: Page, heading: string) => page.getByRole('region', { name: heading }).locator('canvas');

test('demo bob sees his balance, money in and out, and his store\'s payments as charts; an operator sees every payment and the callback backlog', async ({ browser, page, request }) => {
  const store = await demoStoreCredentials(request);
  expect(await payment(request, store, 18.25, '4242 4242 4242 4242')).toBe(200);
  expect(await payment(request, store, 6, '4000 0000 0000 0002')).toBe(402);

  // The drawing code waits until the counters and the charts' words are on the screen.
  let releaseDrawing = () => {};
  const drawingHeld = new Promise<void>((resolve) => (releaseDrawing = resolve));
  let drawingAsked = 0;
  await page.route(/\/assets\/UPlotChart-[\w-]+\.js$/, async (route) => {
    drawingAsked += 1;
    await drawingHeld;
    await route.continue();
  });
  await loginThroughForm(page, demo.bob.email, DEMO_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Total Payments' })).toBeVisible();
  const balance = page.getByRole('region', { name: 'Balance, last 30 days' });
  await expect(balance.getByText(/ at the end of today, from .* \(UTC days\)\.$/)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Money in and out per day' }).getByText(/ in and .* out over the last 30 days \(UTC days\)\.$/)).toBeVisible();
  await expect(drawingOf(page, 'Balance, last 30 days')).toHaveCount(0);
  // Asked for once the charts are on the screen (they are, at this width), and only once.
  await expect.poll(() => drawingAsked).toBe(1);
  releaseDrawing();
  await expect(drawingOf(page, 'Balance, last 30 days').first()).toBeVisible();
  await expect(drawingOf(page, 'Money in and out per day').first()).toBeVisible();
  // The screen reader's table: 30 UTC days, today last, a balance on each.
  const rows = balance.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(31);
  await expect(rows.last()).toContainText(/US\$ [\d,]+\.\d{2}$/);
  await expectNoSidewaysScroll(page);
  await lookAt(page, 'charts-dashboard');

  await page.goto(`/payment-gateway/${store.storeId}`);
  const payments = page.getByRole('region', { name: 'Payments per day, last 30 days' });
  await expect(payments.getByText(/paid payments? \(UTC days\)\. \d[\d,]* paid of \d[\d,]* attempts?: success rate [\d.]+%\.$/)).toBeVisible();
  // A chart's drawing loads once the chart is on the screen.
  await payments.scrollIntoViewIfNeeded();
  await expect(payments.locator('canvas').first()).toBeVisible();
  await expectNoSidewaysScroll(page);
  await lookAt(page, 'charts-store');

  // The operator, in a browser of their own.
  const opsPage = await (await browser.newContext()).newPage();
  await loginThroughForm(opsPage, E2E_OPERATOR.email, E2E_OPERATOR.password, /\/ops$/);
  await expect(opsPage.getByText(/^Callback backlog: \d[\d,]* waiting to be sent now, \d[\d,]* failing\.$/)).toBeVisible();
  await expect(opsPage.getByRole('region', { name: 'Failure rate per day' }).getByText(/pay attempts refused over the last 30 days: [\d.]+%\.$/)).toBeVisible();
  await opsPage.getByRole('region', { name: 'Payments per day, last 30 days' }).scrollIntoViewIfNeeded();
  await expect(drawingOf(opsPage, 'Payments per day, last 30 days').first()).toBeVisible();
  await lookAt(opsPage, 'charts-ops');
});
