import { messages, passkeyMessages, twoFactorMessages, twoFactorSectionText as t, twoFactorText } from '@kestrel/shared';
import type { Browser, Locator, Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expect, loginThroughForm, test } from '../fixtures.ts';
import { lookAt } from '../look.ts';
import { holderViaApi } from '../wallet.ts';

/** What the person's authenticator app would show, from the key the page showed (a step ahead: the app's clock may run ahead, and the current step's code was spent turning it on). */
const codeOf = (secret: string, stepsAhead = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: Date.now() + stepsAhead * 30_000 });

/** Presses Tab, and only Tab, until `target` has the focus, as a keyboard user reaches a field (at most `presses` times). */
async function tabTo(page: Page, target: Locator, presses = 30): Promise<void> {
  for (let pressed = 0; pressed < presses; pressed += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

async function freshDevice(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1366, height: 900 } });
  return context.newPage();
}

test.describe('issue 25: two-factor sign-in with an authenticator app', () => {
  test('turn on from My Account (QR and key, a code, ten recovery codes), sign in with the code by keyboard alone, then with a recovery code, make new recovery codes, then turn off', async ({ page, request, browser }) => {
    const holder = await holderViaApi(request, 'totp');
    await loginThroughForm(page, holder.email, holder.password);
    await page.goto('/my-account?tab=security');
    const section = page.getByRole('region', { name: /Two-factor authentication/ });
    await expect(section.getByText(t.off, { exact: true })).toBeVisible();
    await section.getByRole('button', { name: t.turnOn }).click();
    // The password first (re-authentication): missing, then wrong, each under the field.
    const password = section.getByLabel(t.password, { exact: true });
    await expect(password).toBeFocused();
    await section.getByRole('button', { name: t.continue }).click();
    await expect(section.getByText(messages.login.passwordRequired)).toBeVisible();
    await password.fill('not-my-password');
    await section.getByRole('button', { name: t.continue }).click();
    await expect(section.getByText(passkeyMessages.passwordWrong)).toBeVisible();
    await lookAt(page, 'two-factor-password');
    await password.fill(holder.password);
    await section.getByRole('button', { name: t.continue }).click();
    await expect(section.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
    const secret = ((await page.getByTestId('two-factor-secret').textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await lookAt(page, 'two-factor-enrol');

    // A wrong code first: the message under the field, still off.
    const wrong = codeOf(secret) === '000000' ? '111111' : '000000';
    await section.getByLabel(t.code).fill(wrong);
    await section.getByRole('button', { name: t.confirm }).click();
    await expect(section.getByText(twoFactorMessages.codeInvalid)).toBeVisible();

    await section.getByLabel(t.code).fill(codeOf(secret));
    await section.getByRole('button', { name: t.confirm }).click();
    const codes = section.getByRole('list', { name: t.recoveryTitle });
    await expect(codes.getByRole('listitem')).toHaveCount(10);
    const recoveryCodes = await codes.getByRole('listitem').allTextContents();
    await lookAt(page, 'two-factor-recovery-codes');
    await section.getByRole('button', { name: t.done }).click();
    await expect(section.getByText(t.on, { exact: true })).toBeVisible();
    await expect(codes).toHaveCount(0);

    // Another device: the password alone no longer signs in; the code step, by keyboard alone.
    const laptop = await freshDevice(browser);
    await laptop.goto('/login');
    // The prerendered form takes input once React has hydrated it.
    await expect(laptop.getByRole('button', { name: 'Login' })).toBeEnabled();
    await tabTo(laptop, laptop.getByLabel('Email'));
    await laptop.keyboard.type(holder.email);
    await laptop.keyboard.press('Tab');
    await laptop.keyboard.type(holder.password);
    await laptop.keyboard.press('Enter');
    const code = laptop.getByLabel(twoFactorText.code);
    await expect(code).toBeFocused();
    await expect(laptop).toHaveURL(/\/login$/);
    await laptop.keyboard.press('Enter');
    await expect(laptop.getByText(twoFactorMessages.codeRequired)).toBeVisible();
    await lookAt(laptop, 'login-second-step');
    await tabTo(laptop, code);
    await laptop.keyboard.type(codeOf(secret, 1));
    await laptop.keyboard.press('Enter');
    await expect(laptop).toHaveURL(/\/dashboard$/);

    // A third device, with a recovery code (the phone is lost).
    const borrowed = await freshDevice(browser);
    await borrowed.goto('/login');
    await expect(borrowed.getByRole('button', { name: 'Login' })).toBeEnabled();
    await borrowed.getByLabel('Email').fill(holder.email);
    await borrowed.getByLabel('Password', { exact: true }).fill(holder.password);
    await borrowed.getByRole('button', { name: 'Login' }).click();
    await borrowed.getByRole('button', { name: twoFactorText.useRecoveryCode }).click();
    await borrowed.getByLabel(twoFactorText.recoveryCode).fill(recoveryCodes[0]!);
    await borrowed.getByRole('button', { name: twoFactorText.verify }).click();
    await expect(borrowed).toHaveURL(/\/dashboard$/);

    // New recovery codes, with a code from the app of a later 30-second step than the last one
    // used (the sign-in above): ten new codes, shown once; the old ones no longer work.
    await page.waitForTimeout(30_000 - (Date.now() % 30_000) + 500);
    await page.reload();
    await section.getByRole('button', { name: t.renew }).click();
    const renewForm = section.getByRole('form', { name: t.renew });
    await renewForm.getByLabel(t.renewCode).fill(codeOf(secret, 1));
    await renewForm.getByRole('button', { name: t.renewConfirm }).click();
    const renewed = section.getByRole('list', { name: t.recoveryTitle });
    await expect(renewed.getByRole('listitem')).toHaveCount(10);
    const newCodes = await renewed.getByRole('listitem').allTextContents();
    expect(newCodes.some((code) => recoveryCodes.includes(code))).toBe(false);
    await lookAt(page, 'two-factor-new-recovery-codes');
    await section.getByRole('button', { name: t.done }).click();

    // Turning off asks for a code; an old recovery code is refused, a new one turns it off.
    await section.getByRole('button', { name: t.turnOff }).click();
    const offCode = section.getByLabel(t.offCode);
    await offCode.fill(recoveryCodes[1]!);
    await section.getByRole('button', { name: t.offConfirm }).click();
    await expect(section.getByText(twoFactorMessages.recoveryCodeInvalid)).toBeVisible();
    await lookAt(page, 'two-factor-turn-off');
    await offCode.fill(newCodes[0]!);
    await section.getByRole('button', { name: t.offConfirm }).click();
    await expect(page.getByText(twoFactorMessages.disabled)).toBeVisible();
    await expect(section.getByText(t.off, { exact: true })).toBeVisible();

    // Off again: the password alone signs in.
    const later = await freshDevice(browser);
    await loginThroughForm(later, holder.email, holder.password);
  });
});
