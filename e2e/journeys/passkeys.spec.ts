import { messages, passkeyMessages, passkeySignInText, passkeyText as t, uiText } from '@kestrel/shared';
import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expect, loginThroughForm, test } from '../fixtures.ts';
import { lookAt } from '../look.ts';
import { auth, holderViaApi } from '../wallet.ts';

/*
 * Passkeys (issue 25) with Chromium's virtual authenticator, through the DevTools protocol: a
 * platform authenticator (CTAP2, internal transport) that keeps resident keys and verifies the
 * person at once, so the browser's passkey prompts answer without anyone touching them.
 */
async function virtualAuthenticator(page: Page): Promise<{ credentials: () => Promise<number> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.length };
}

async function logout(page: Page): Promise<void> {
  await page.getByRole('link', { name: uiText.portal.logout }).first().click();
  await expect(page).toHaveURL(/\/login$/);
}

test.describe('issue 25: passkeys', () => {
  test('add a passkey on My Account → Security (with the password), sign out, sign in with it without the password, then as the second step after the password; remove it with itself', async ({ page, request }) => {
    const authenticator = await virtualAuthenticator(page);
    const holder = await holderViaApi(request, 'passkey');
    await loginThroughForm(page, holder.email, holder.password);
    await page.goto('/my-account?tab=security');
    const section = page.getByRole('region', { name: t.title });
    await expect(section.getByText(t.none)).toBeVisible();

    // A name and the password are needed (a stolen session must not add a passkey); then the browser makes it.
    await section.getByRole('button', { name: t.add }).click();
    await section.getByRole('button', { name: t.create }).click();
    await expect(section.getByText(passkeyMessages.nameRequired)).toBeVisible();
    await expect(section.getByText(messages.login.passwordRequired)).toBeVisible();
    await section.getByLabel(t.name).fill('This laptop');
    await section.getByLabel(t.password, { exact: true }).fill('not-my-password');
    await section.getByRole('button', { name: t.create }).click();
    await expect(section.getByText(passkeyMessages.passwordWrong)).toBeVisible();
    await lookAt(page, 'passkeys-add');
    expect(await authenticator.credentials()).toBe(0);
    await section.getByLabel(t.password, { exact: true }).fill(holder.password);
    await section.getByRole('button', { name: t.create }).click();
    await expect(page.getByText(passkeyMessages.added)).toBeVisible();
    const list = section.getByRole('list', { name: t.title });
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list.getByText('This laptop')).toBeVisible();
    await expect(list.getByText(t.never)).toBeVisible();
    expect(await authenticator.credentials()).toBe(1);
    // A passkey is a second factor: two-factor sign-in says it is on with it.
    await expect(page.getByRole('region', { name: /Two-factor authentication/ }).getByText(t.onWithPasskey)).toBeVisible();
    await lookAt(page, 'passkeys-security');

    // Removing asks for a current second factor, here the passkey itself (no app): no password field.
    await list.getByRole('button', { name: `${t.remove}: This laptop` }).click();
    const removeForm = list.getByRole('form', { name: `${t.removeTitle} This laptop` });
    await expect(removeForm.getByText(t.removeHintPasskeysOnly)).toBeVisible();
    await expect(removeForm.getByLabel(t.password, { exact: true })).toHaveCount(0);
    await lookAt(page, 'passkeys-remove');
    await removeForm.getByRole('button', { name: t.cancel }).click();

    // Signed out, the passkey alone signs in.
    await logout(page);
    await expect(page.getByRole('button', { name: passkeySignInText.signIn })).toBeEnabled();
    await lookAt(page, 'login-with-passkey');
    await page.getByRole('button', { name: passkeySignInText.signIn }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // The password alone no longer does: the second step asks for the passkey.
    await logout(page);
    await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled();
    await page.getByLabel('Email').fill(holder.email);
    await page.getByLabel('Password', { exact: true }).fill(holder.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByText(passkeySignInText.secondStepHint)).toBeVisible();
    await lookAt(page, 'login-passkey-second-step');
    await page.getByRole('button', { name: passkeySignInText.useInSecondStep }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // Its last use shows on the Security tab; it can be renamed.
    await page.goto('/my-account?tab=security');
    await expect(list.getByText(t.never)).toHaveCount(0);
    await list.getByRole('button', { name: `${t.rename}: This laptop` }).click();
    const renameForm = list.getByRole('form', { name: `${t.renameTitle}: This laptop` });
    await renameForm.getByLabel(t.name).fill('Work laptop');
    await lookAt(page, 'passkeys-rename');
    await renameForm.getByRole('button', { name: t.save }).click();
    await expect(page.getByText(passkeyMessages.renamed)).toBeVisible();
    await expect(list.getByText('Work laptop')).toBeVisible();

    // Removed with the passkey's own confirmation (the browser's prompt), the list is empty again and
    // two-factor sign-in is off, which the mailbox says too.
    await list.getByRole('button', { name: `${t.remove}: Work laptop` }).click();
    const removeRenamed = list.getByRole('form', { name: `${t.removeTitle} Work laptop` });
    await removeRenamed.getByRole('button', { name: t.confirmRemove }).click();
    await expect(page.getByText(passkeyMessages.removed)).toBeVisible();
    await expect(section.getByText(t.none)).toBeVisible();
    await expect(page.getByRole('region', { name: /Two-factor authentication/ }).getByText('Off', { exact: true })).toBeVisible();
    const subjects = async () => {
      const mailbox = await request.get(`/dev/mailbox.json?to=${encodeURIComponent(holder.email.toLowerCase())}`);
      return ((await mailbox.json()) as { data: { subject: string }[] }).data.map((mail) => mail.subject);
    };
    await expect.poll(subjects).toEqual(expect.arrayContaining(['A passkey was removed from your Kestrel account', 'Two-factor sign-in was turned off for your Kestrel account']));
  });

  test('with an authenticator app on as well, removing asks for a code or a passkey; the passkey confirms it and two-factor sign-in stays on', async ({ page, request }) => {
    await virtualAuthenticator(page);
    const holder = await holderViaApi(request, 'passkey-app');
    await loginThroughForm(page, holder.email, holder.password);
    await page.goto('/my-account?tab=security');
    const section = page.getByRole('region', { name: t.title });
    await section.getByRole('button', { name: t.add }).click();
    await section.getByLabel(t.name).fill('This laptop');
    await section.getByLabel(t.password, { exact: true }).fill(holder.password);
    await section.getByRole('button', { name: t.create }).click();
    await expect(page.getByText(passkeyMessages.added)).toBeVisible();

    // The app on too, through the API with the password (the two-factor journey covers its screens).
    const setup = await request.post('/v1/auth/two-factor/setup', { headers: auth(holder.token), data: { password: holder.password } });
    expect(setup.status(), await setup.text()).toBe(200);
    const secret = Secret.fromBase32(((await setup.json()) as { data: { secret: string } }).data.secret);
    const code = TOTP.generate({ secret, algorithm: 'SHA1', digits: 6, period: 30 });
    const enabled = await request.post('/v1/auth/two-factor/enable', { headers: auth(holder.token), data: { code, password: holder.password } });
    expect(enabled.status(), await enabled.text()).toBe(200);
    await page.reload();
    const twoFactor = page.getByRole('region', { name: /Two-factor authentication/ });
    await expect(twoFactor.getByText('On', { exact: true })).toBeVisible();

    const list = section.getByRole('list', { name: t.title });
    await list.getByRole('button', { name: `${t.remove}: This laptop` }).click();
    const removeForm = list.getByRole('form', { name: `${t.removeTitle} This laptop` });
    await expect(removeForm.getByText(t.removeHint)).toBeVisible();
    await removeForm.getByRole('button', { name: t.confirmRemove }).click();
    await expect(removeForm.getByText(passkeyMessages.confirmRequired)).toBeVisible();
    await expect(removeForm.getByLabel(t.code)).toBeFocused();
    await lookAt(page, 'passkeys-remove-with-app');
    await removeForm.getByRole('button', { name: t.usePasskey }).click();
    await expect(page.getByText(passkeyMessages.removed)).toBeVisible();
    await expect(section.getByText(t.none)).toBeVisible();
    await expect(twoFactor.getByText('On', { exact: true })).toBeVisible();
  });
});
