import { stepUpText } from '@kestrel/shared';
import { Secret, TOTP } from 'otpauth';
import { expect, test } from '../fixtures.ts';
import { lookAt } from '../look.ts';
import { TransferFormPage } from '../pages/transfer.page.ts';
import { auth, balanceOf, fundFromDemo, holderViaApi, TPIN } from '../wallet.ts';

/*
 * Step-up for large movements (issue 25; README, Step-up for large movements). A journey's
 * holder gets only demo bob's small float, so the transfer above the threshold (US$ 1,500.00)
 * is refused for its amount once the code is accepted: what this journey shows is the form's
 * "Verification code" step — asked for, the code computed here from the secret the API
 * answered (as the person's app would), accepted (the refusal that follows is the balance's,
 * not the code's) — and that a transfer below the threshold goes through on the TPIN alone.
 * The API suite proves the money side (apps/api/src/modules/auth/step-up.test.ts).
 */

const codeOf = (secret: string, stepsAhead = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: Date.now() + stepsAhead * 30_000 });
const stepNow = () => Math.floor(Date.now() / 30_000);

test.describe('issue 25: step-up for large movements', () => {
  test('a transfer above the threshold asks for the authenticator code; below it nothing changes', async ({ page, request }) => {
    // A code is taken only for a later 30-second step than the last one used: this waits for one.
    test.setTimeout(120_000);
    const sender = await holderViaApi(request, 'stepup');
    const recipient = await holderViaApi(request, 'payee');
    await fundFromDemo(request, sender);

    // Two-factor sign-in on, through the API (its own journey covers the screens).
    const setup = await request.post('/v1/auth/two-factor/setup', { headers: auth(sender.token) });
    expect(setup.status(), await setup.text()).toBe(200);
    const secret = ((await setup.json()) as { data: { secret: string } }).data.secret;
    const enabled = await request.post('/v1/auth/two-factor/enable', { headers: auth(sender.token), data: { code: codeOf(secret) } });
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

    // A code from the app (of a step after the sign-in's): accepted; the balance then refuses
    // US$ 1,500.00, and no money moved.
    while (stepNow() + 1 <= signInStep) await page.waitForTimeout(1_000);
    await code.fill(codeOf(secret, 1));
    await form.send.click();
    await expect(page.getByText('Insufficient balance').first()).toBeVisible();
    expect(await balanceOf(request, sender)).toBe(40);

    // Below the threshold: no code asked, the money moves.
    await form.goto(recipient.userName);
    await form.amount.fill('10');
    await form.tpin.fill(TPIN);
    await form.send.click();
    await expect(form.successToast).toBeVisible();
    await expect(page.getByLabel(stepUpText.label)).toHaveCount(0);
    expect(await balanceOf(request, sender)).toBe(30);

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
    expect(await balanceOf(request, sender)).toBe(30);
  });
});
