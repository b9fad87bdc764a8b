import { messages, uiText } from '@kestrel/shared';
import { demo, DEMO_PASSWORD, expect, loginThroughForm, registerViaApi, screenshot, test, uniqueId, uniquePhone, verificationLinkFor } from '../fixtures.ts';

test.describe('sign-up, verification, login and logout', () => {
  test('a visitor signs up, verifies the e-mail from the mailbox, logs in and out @phone', async ({ page, request }) => {
    const id = uniqueId('signup');
    const email = `${id}@example.test`;
    await page.goto('/signup');
    await expect(page.getByRole('heading', { name: uiText.signup.title })).toBeVisible();
    await screenshot(page, 'signup');
    await page.getByLabel(uiText.signup.firstName).fill('Dana');
    await page.getByLabel(uiText.signup.lastName).fill('Signup');
    await page.getByLabel(uiText.signup.email).fill(email);
    await page.getByLabel(uiText.signup.phone).fill(uniquePhone());
    await page.getByLabel(uiText.signup.password, { exact: true }).fill('a-strong-password');
    await page.getByLabel(uiText.signup.confirmPassword, { exact: true }).fill('a-strong-password');
    await page.getByRole('button', { name: uiText.signup.submit }).click();

    // Signed in but unverified: the portal gate asks for verification.
    await expect(page.getByRole('heading', { name: messages.portal.verifyEmailTitle })).toBeVisible();
    await screenshot(page, 'verify-email-gate');
    await page.getByRole('button', { name: uiText.verification.resendMail }).click();
    await expect(page.getByText(messages.verification.sent)).toBeVisible();

    const link = await verificationLinkFor(request, email);
    await page.goto(link);
    await expect(page.getByText(messages.verification.verified)).toBeVisible();
    await screenshot(page, 'email-verified');

    // Verified but no account yet: the complete-account form is next.
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: /Complete Your/ })).toBeVisible();

    await page.getByRole('link', { name: uiText.portal.logout }).first().click();
    await expect(page).toHaveURL(/\/login$/);
    const cookies = await page.context().cookies();
    expect(cookies.map((cookie) => cookie.name)).not.toContain('accessToken');
  });

  test('the sign-up form shows every message under its field', async ({ page }) => {
    await page.goto('/signup');
    await page.getByRole('button', { name: uiText.signup.submit }).click();
    for (const text of [
      messages.signup.firstNameRequired,
      messages.signup.lastNameRequired,
      messages.signup.emailRequired,
      messages.signup.phoneRequired,
      messages.signup.passwordRequired,
      messages.signup.confirmRequired,
    ]) {
      await expect(page.getByText(text, { exact: true })).toBeVisible();
    }
    await page.getByLabel(uiText.signup.password, { exact: true }).fill('short');
    await page.getByLabel(uiText.signup.confirmPassword, { exact: true }).fill('different');
    await page.getByRole('button', { name: uiText.signup.submit }).click();
    await expect(page.getByText(messages.signup.passwordTooShort)).toBeVisible();
    await page.getByLabel(uiText.signup.password, { exact: true }).fill('long-enough-1');
    await page.getByRole('button', { name: uiText.signup.submit }).click();
    await expect(page.getByText(messages.signup.passwordMismatch)).toBeVisible();
  });

  test('a used e-mail is refused with the spec message', async ({ page, request }) => {
    const existing = await registerViaApi(request, { verify: false });
    await page.goto('/signup');
    await page.getByLabel(uiText.signup.firstName).fill('Eve');
    await page.getByLabel(uiText.signup.lastName).fill('Again');
    await page.getByLabel(uiText.signup.email).fill(existing.email);
    await page.getByLabel(uiText.signup.phone).fill(uniquePhone());
    await page.getByLabel(uiText.signup.password, { exact: true }).fill('a-strong-password');
    await page.getByLabel(uiText.signup.confirmPassword, { exact: true }).fill('a-strong-password');
    await page.getByRole('button', { name: uiText.signup.submit }).click();
    await expect(page.getByText(messages.signup.emailTaken).first()).toBeVisible();
  });

  test('the login page: messages, bad password, success toast, closed when signed in @phone', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: uiText.login.title, exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: uiText.login.forgotPassword })).toBeVisible();
    await expect(page.getByRole('link', { name: uiText.login.register })).toHaveAttribute('href', '/signup');
    await screenshot(page, 'login');

    await page.getByRole('button', { name: uiText.login.submit }).click();
    await expect(page.getByText(messages.login.emailRequired)).toBeVisible();
    await expect(page.getByText(messages.login.passwordRequired)).toBeVisible();

    await page.getByLabel('Email').fill(demo.alice.email);
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('not-the-password');
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: /show password/i }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: uiText.login.submit }).click();
    await expect(page.getByText(messages.login.invalid)).toBeVisible();
    await screenshot(page, 'login-error');

    await password.fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: uiText.login.submit }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText(messages.login.success)).toBeVisible();
    await expect(page.getByRole('button', { name: uiText.portal.viewBalance })).toBeVisible();
    // js-cookie percent-encodes the space in the spec's 'acc email' name.
    const cookieNames = (await page.context().cookies()).map((cookie) => decodeURIComponent(cookie.name));
    for (const name of ['userId', 'accessToken', 'accountNumber', 'acc email', 'acc_user_name']) expect(cookieNames).toContain(name);
    await screenshot(page, 'dashboard');

    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('signed-out visitors are sent to /login; unknown paths show Page Not Found', async ({ page }) => {
    for (const path of ['/', '/dashboard']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
    }
    await page.goto(`/no-such-page-${uniqueId()}`);
    await expect(page.getByText(messages.portal.notFound)).toBeVisible();
    await screenshot(page, 'not-found');
    await page.getByRole('button', { name: uiText.portal.goBack }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the shell: navigation links and the mobile drawer @phone', async ({ page }) => {
    await loginThroughForm(page, demo.bob.email, DEMO_PASSWORD);
    const isPhone = test.info().project.name === 'phone';
    if (isPhone) {
      await page.getByRole('button', { name: /menu/i }).click();
    }
    const nav = page.getByRole('navigation').filter({ hasText: uiText.nav.transactions }).first();
    for (const label of Object.values(uiText.nav)) await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
    await screenshot(page, isPhone ? 'drawer-open' : 'shell');
  });
});
