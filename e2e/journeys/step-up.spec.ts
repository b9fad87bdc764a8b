import { stepUpText } from '@kestrel/shared';
import { Secret, TOTP } from 'otpauth';
import { expect, test } from '../fixtures.ts';
import { lookAt } from '../look.ts';
import { TransferFormPage } from '../pages/transfer.page.ts';
import { auth, balanceOf, fundAboveThreshold, fundFromDemo, holderViaApi, TPIN } from '../wallet.ts';

/*
 * Step-up for large movements (issue 25; README, Step-up for large movements). The sender gets
 * demo bob's float and US$ 1,600.00 more (fundAboveThreshold: paid into bob's demo store by test
 * card, then sent on), so the transfer above the threshold (US$ 1,500.00) goes through once the
 * form's "Verification code" step has its code — computed here from the secret the API answered,
 * as the person's app would — and the balance shows it; a transfer below the threshold goes
 * through on the TPIN alone. The API suite proves the rest (apps/api/src/modules/auth/step-up.test.ts).
 */

const codeOf = (secret: string, stepsAhead = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: Date.now() + stepsAhead * 30_000 });
const stepNow = () => Math.floor(Date.now() / 30_000);

test.describe('issue 25: step-up for large movements', () => {
  test('a transfer above the threshold asks for the authenticator code and goes through with it; below it nothing changes', async ({ page, request }) => {
    // A code is taken only for a later 30-second step than the last one used: this waits for one.
    test.setTimeout(120_000);
    const sender = await holderViaApi(request, 'stepup');
    const recipient = await holderViaApi(request, 'payee');
    await fundFromDemo(request, sender);
    await fundAboveThreshold(request, sender, 1600);
    expect(await balanceOf(request, sender)).toBe(1640);

    // Two-factor sign-in on, through the API with the password (its own journey covers the screens).
    const setup = await request.post('/v1/auth/two-factor/setup', { headers: auth(sender.token), data: { password: sender.password } });
    expect(setup.status(), await setup.text()).toBe(200);
    const secret = ((await setup.json()) as { data: { secret: string } }).data.secret;
    const enabled = await request.post('/v1/auth/two-factor/enable', { headers: auth(sender.token), data: { code: codeOf(secret), password: sender.password } });
    expect(enabled.status(), await enabled.text()).toBe(200);

    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled();
    await page.getByLabel('Email').fill(sender.email);
    await page.getByLabel('Password', { exact: true }).fill(sender.password);
    await page.getByRole('button', { name: 'Login' }).click();
    const signInStep = stepNow() + 1;
    await page.getByLabel('Authentication code').fill(codeOf(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    const form = new TransferFormPage(page);
    await form.goto(recipient.userName);
    await form.amount.fill('1500');
    await form.tpin.fill(TPIN);
    await form.send.click();
    const code = page.getByLabel(stepUpText.label);
    await expect(code).toBeFocused();
    await expect(page.getByText(stepUpText.hintApp)).toBeVisible();
    await lookAt(page, 'transfer-step-up');

    // A code from the app (of a step after the sign-in's): accepted, and US$ 1,500.00 moves.
    while (stepNow() + 1 <= signInStep) await page.waitForTimeout(1_000);
    await code.fill(codeOf(secret, 1));
    await form.send.click();
    await expect(form.successToast).toBeVisible();
    expect(await balanceOf(request, sender)).toBe(140);
    expect(await balanceOf(request, recipient)).toBe(1500);

    // Below the threshold: no code asked, the money moves.
    await form.goto(recipient.userName);
    await form.amount.fill('10');
    await form.tpin.fill(TPIN);
    await form.send.click();
    await expect(form.successToast).toBeVisible();
    await expect(page.getByLabel(stepUpText.label)).toHaveCount(0);
    // (The large transfer's toast may still be up: the balance says this one went through.)
    await expect.poll(() => balanceOf(request, sender)).toBe(130);

    // The bank withdraw form asks the same way (the code is mailed when 2FA is off; here, the app).
    await page.goto('/bank/withdraw/new');
    await page.getByLabel('Country').selectOption('United States');
    await page.getByLabel('Account Type').selectOption('checking');
    await page.getByLabel('Bank Name').fill('First Bank');
    await page.getByLabel('Bank Account Number').fill('000123456789');
    await page.getByLabel('Routing Number').fill('021000021');
    await page.getByLabel('Account Holder Name').fill(sender.holderName);
    await page.getByLabel('Amount').fill('1500');
    await page.getByLabel('TPIN', { exact: true }).fill(TPIN);
    await page.getByRole('button', { name: 'Request withdraw' }).click();
    await expect(page.getByLabel(stepUpText.label)).toBeFocused();
    await expect(page.getByText(stepUpText.hintApp)).toBeVisible();
    await lookAt(page, 'withdraw-step-up');
    expect(await balanceOf(request, sender)).toBe(130);
  });
});
