import { messages, uiText } from '@kestrel/shared';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, loginThroughForm, registerViaApi, test } from '../fixtures.ts';
import { lookAt } from '../look.ts';

/** The newest password reset link mailed to an address, from the development mailbox. */
async function resetLinkFor(request: APIRequestContext, email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const mails = (await (await request.get(`/dev/mailbox.json?to=${encodeURIComponent(email.toLowerCase())}`)).json()).data as { to: string; subject: string; text: string }[];
      link = mails.find((mail) => mail.to === email.toLowerCase() && mail.subject === 'Reset your Kestrel password')?.text.match(/https?:\/\/\S+\/reset-password\?token=[\w-]+/)?.[0];
      return link;
    })
    .toBeTruthy();
  return link!;
}

async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1366, height: 900 } });
  return context.newPage();
}

test.describe('issue 25: forgotten password', () => {
  test('forgot → mailbox link → new password → sign in with it; the old session is gone', async ({ page, request, browser }) => {
    const user = await registerViaApi(request);
    // The owner is signed in on one device (this page) before the reset.
    await loginThroughForm(page, user.email, user.password);

    const visitor = await freshPage(browser);
    await visitor.goto('/login');
    await visitor.getByRole('link', { name: uiText.login.forgotPassword }).click();
    await expect(visitor).toHaveURL(/\/forgot-password$/);
    await expect(visitor.getByRole('heading', { name: uiText.passwordReset.forgotTitle })).toBeVisible();
    await visitor.getByRole('button', { name: uiText.passwordReset.sendLink }).click();
    await expect(visitor.getByText(messages.signup.emailRequired)).toBeVisible();
    await lookAt(visitor, 'forgot-password');
    await visitor.getByLabel(uiText.passwordReset.email).fill(user.email);
    await visitor.getByRole('button', { name: uiText.passwordReset.sendLink }).click();
    await expect(visitor.getByRole('status').filter({ hasText: messages.passwordReset.requested })).toBeVisible();
    await lookAt(visitor, 'forgot-password-sent');

    const link = await resetLinkFor(request, user.email);
    await visitor.goto(link);
    await expect(visitor.getByRole('heading', { name: uiText.passwordReset.resetTitle })).toBeVisible();
    const newPassword = visitor.getByLabel(uiText.passwordReset.password, { exact: true });
    const confirm = visitor.getByLabel(uiText.passwordReset.confirmPassword, { exact: true });
    // The sign-up's rules and messages.
    await visitor.getByRole('button', { name: uiText.passwordReset.submit }).click();
    await expect(visitor.getByText(messages.signup.passwordRequired)).toBeVisible();
    await expect(visitor.getByText(messages.signup.confirmRequired)).toBeVisible();
    await newPassword.fill('short');
    await confirm.fill('different');
    await visitor.getByRole('button', { name: uiText.passwordReset.submit }).click();
    await expect(visitor.getByText(messages.signup.passwordTooShort)).toBeVisible();
    await newPassword.fill('my-new-password-25');
    await visitor.getByRole('button', { name: uiText.passwordReset.submit }).click();
    await expect(visitor.getByText(messages.signup.passwordMismatch)).toBeVisible();
    await lookAt(visitor, 'reset-password');
    await confirm.fill('my-new-password-25');
    await visitor.getByRole('button', { name: uiText.passwordReset.submit }).click();
    await expect(visitor).toHaveURL(/\/login$/);
    await expect(visitor.getByText(messages.passwordReset.done)).toBeVisible();

    // The same link a second time: refused, with the way to a new one.
    await visitor.goto(link);
    await visitor.getByLabel(uiText.passwordReset.password, { exact: true }).fill('another-password-25');
    await visitor.getByLabel(uiText.passwordReset.confirmPassword, { exact: true }).fill('another-password-25');
    await visitor.getByRole('button', { name: uiText.passwordReset.submit }).click();
    await expect(visitor.getByRole('alert').filter({ hasText: messages.passwordReset.linkInvalid })).toBeVisible();
    await expect(visitor.getByRole('link', { name: uiText.passwordReset.askAgain })).toHaveAttribute('href', '/forgot-password');
    await lookAt(visitor, 'reset-password-spent');

    // The old password no longer works; the new one does.
    await visitor.goto('/login');
    await visitor.getByLabel('Email').fill(user.email);
    await visitor.getByLabel('Password', { exact: true }).fill(user.password);
    await visitor.getByRole('button', { name: uiText.login.submit }).click();
    await expect(visitor.getByText(messages.login.invalid)).toBeVisible();
    await visitor.getByLabel('Password', { exact: true }).fill('my-new-password-25');
    await visitor.getByRole('button', { name: uiText.login.submit }).click();
    await expect(visitor).toHaveURL(/\/dashboard$/);

    // The device that was signed in before the reset is signed out, and so is the API token.
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
    const oldToken = await request.get(`/v1/user/${user.userId}`, { headers: { authorization: user.token } });
    expect(oldToken.status()).toBe(401);
    await visitor.context().close();
  });
});
