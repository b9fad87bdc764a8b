import { accountFieldLabels as labels, uiText } from '@kestrel/shared';
import { demo, DEMO_PASSWORD, expect, loginThroughForm, registerViaApi, test, uniqueId, uniquePhone } from '../fixtures.ts';
import { CompleteAccountPage } from '../pages/account.page.ts';
import { screenshotWidths } from '../viewports.ts';

/*
 * Issue 20: the complete-account form sends the country's ISO code (as the demo data stores
 * it), and My Account shows the country's name.
 */

test('a new account sends the chosen country as its code and My Account shows its name', async ({ page, request }) => {
  test.slow();
  const user = await registerViaApi(request);
  await page.goto('/login');
  await page.getByLabel(uiText.login.email).fill(user.email);
  await page.getByLabel(uiText.login.password, { exact: true }).fill(user.password);
  await page.getByRole('button', { name: uiText.login.submit }).click();
  const form = new CompleteAccountPage(page);
  await expect(form.heading).toHaveText(uiText.portal.completeAccountTitle);

  const id = uniqueId('ctry');
  await form.fill({
    type: 'personal',
    holderName: 'Nadia Rahman',
    email: `${id}@example.test`,
    phone: uniquePhone(),
    userName: `u${id}`.slice(0, 30),
    dateOfBirth: '1990-04-12',
    country: 'Bangladesh',
    city: 'Dhaka',
    state: 'Dhaka',
    street: '12 Road 7',
    zipCode: '1212',
    notification: 'Email',
    occupation: 'Trader',
    annualIncome: '50000',
    identityType: 'Passport',
    identityNumber: `P${id}`.slice(0, 40),
    tpin: '2468',
  });
  await expect(form.field(labels.country)).toHaveValue('BD');
  await form.attachImages(1);
  const [sent] = await Promise.all([page.waitForRequest((req) => req.method() === 'POST' && req.url().endsWith('/v1/account/create')), form.submit.click()]);
  expect((sent.postDataJSON() as { address: { country: string } }).address.country).toBe('BD');
  await expect(form.successToast()).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/my-account');
  const country = page.getByText('Country', { exact: true }).locator('xpath=following-sibling::dd[1]');
  await expect(country).toHaveText('Bangladesh');
  await screenshotWidths(page, 'my-account-country');
});

test("demo bob's country, stored as its code, reads as its name on My Account", async ({ page }) => {
  await loginThroughForm(page, demo.bob.email, DEMO_PASSWORD);
  await page.goto('/my-account');
  await expect(page.getByText('Country', { exact: true }).locator('xpath=following-sibling::dd[1]')).toHaveText('United States of America');
});
