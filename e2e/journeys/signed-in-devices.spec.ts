import { sessionMessages, uiText } from '@kestrel/shared';
import type { Browser, Page } from '@playwright/test';
import { expect, loginThroughForm, test } from '../fixtures.ts';
import { lookAt } from '../look.ts';
import { holderViaApi } from '../wallet.ts';

const t = uiText.myAccount;

async function deviceWith(browser: Browser, userAgent: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1366, height: 900 }, userAgent });
  return context.newPage();
}

const PHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const TABLET_UA = 'Mozilla/5.0 (Android 15; Tablet; rv:140.0) Gecko/140.0 Firefox/140.0';

test.describe('issue 25: signed-in devices', () => {
  test('My Account → Security lists the devices; one is signed out, then every other, and each lands on /login', async ({ page, request, browser }) => {
    const holder = await holderViaApi(request, 'devices');
    const phone = await deviceWith(browser, PHONE_UA);
    const tablet = await deviceWith(browser, TABLET_UA);
    await loginThroughForm(phone, holder.email, holder.password);
    await loginThroughForm(tablet, holder.email, holder.password);
    await loginThroughForm(page, holder.email, holder.password);

    await page.goto('/my-account');
    await page.getByRole('tab', { name: t.security }).click();
    await expect(page).toHaveURL(/\/my-account\?tab=security$/);
    const devices = page.getByRole('list', { name: t.devicesTitle });
    // Sign-up's own session (made through the API) is live too.
    await expect(devices.getByRole('listitem')).toHaveCount(4);
    await expect(devices.getByRole('listitem').filter({ hasText: t.thisDevice })).toHaveCount(1);
    await expect(devices.getByRole('listitem').filter({ hasText: 'Safari 18 on iOS' })).toHaveCount(1);
    await lookAt(page, 'my-account-security');

    await devices.getByRole('listitem').filter({ hasText: 'Safari 18 on iOS' }).getByRole('button', { name: new RegExp(`^${t.signOut}`) }).click();
    await expect(page.getByText(sessionMessages.signedOut)).toBeVisible();
    await expect(devices.getByRole('listitem')).toHaveCount(3);
    // The phone's session is gone: its next page asks for a sign-in.
    await phone.goto('/my-account');
    await expect(phone).toHaveURL(/\/login/);

    // By keyboard: the button is reachable and works with Enter.
    await page.getByRole('button', { name: t.signOutOthers }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText(sessionMessages.signedOutOthers)).toBeVisible();
    await expect(devices.getByRole('listitem')).toHaveCount(1);
    await expect(page.getByText(t.noOtherDevices)).toBeVisible();
    await tablet.goto('/my-account');
    await expect(tablet).toHaveURL(/\/login/);
    // This device is still signed in.
    await page.reload();
    await expect(page.getByRole('list', { name: t.devicesTitle }).getByRole('listitem')).toHaveCount(1);
  });
});
