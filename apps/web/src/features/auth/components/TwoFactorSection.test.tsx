import { screen, waitFor, within } from '@testing-library/react';
import { messages, passkeyMessages, passkeyText, twoFactorMessages, twoFactorSectionText } from '@kestrel/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, signIn, stubApi, success, writes } from '../../../test/render.tsx';
import { TwoFactorSection } from './TwoFactorSection.tsx';

const setup = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauthUri: 'otpauth://totp/Kestrel:ada%40example.test?issuer=Kestrel&secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30',
};
const recoveryCodes = ['aaaaa-bbbbb', 'ccccc-ddddd', 'eeeee-fffff', 'ggggg-hhhhh', 'jjjjj-kkkkk', 'mmmmm-nnnnn', 'ppppp-qqqqq', 'rrrrr-sssss', 'ttttt-uuuuu', 'vvvvv-wwwww'];
const refusal = (error: string, code: string) => ({ status: 400, body: { status: 'error', error, code } });

describe('My Account → Security: two-factor authentication', () => {
  beforeEach(signIn);

  it('turns on: the password first (missing, then wrong, under its field), QR code and the key as text, the code checked under its field, a wrong code under it, then the ten recovery codes once', async () => {
    let enabled = false;
    let tries = 0;
    let setups = 0;
    const calls = stubApi({
      'GET /v1/auth/passkeys': success([]),
      'GET /v1/auth/two-factor': () => success({ enabled, recoveryCodesLeft: enabled ? 10 : 0 }),
      'POST /v1/auth/two-factor/setup': () => {
        setups += 1;
        if (setups === 1) return { status: 400, body: { status: 'error', error: passkeyMessages.passwordWrong, code: 'password_invalid', fields: { password: passkeyMessages.passwordWrong } } };
        return success(setup);
      },
      'POST /v1/auth/two-factor/enable': () => {
        tries += 1;
        if (tries === 1) return refusal(twoFactorMessages.codeInvalid, 'second_factor_invalid');
        enabled = true;
        return success({ recoveryCodes }, twoFactorMessages.enabled);
      },
    });
    const { user } = renderPage(<TwoFactorSection />);
    expect(await screen.findByText('Off')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Turn on' }));

    // Re-authentication: the sign-in's message for a missing password, the server's for a wrong one.
    const password = screen.getByLabelText(twoFactorSectionText.password);
    expect(document.activeElement).toBe(password);
    await user.click(screen.getByRole('button', { name: twoFactorSectionText.continue }));
    expect(await screen.findByText(messages.login.passwordRequired)).toBeTruthy();
    expect(writes(calls)).toEqual([]);
    await user.type(password, 'not-it');
    await user.click(screen.getByRole('button', { name: twoFactorSectionText.continue }));
    expect(await screen.findByText(passkeyMessages.passwordWrong)).toBeTruthy();
    await user.clear(password);
    await user.type(password, 'right-one');
    await user.click(screen.getByRole('button', { name: twoFactorSectionText.continue }));

    expect(await screen.findByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeTruthy();
    expect(screen.getByTestId('two-factor-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');

    const code = screen.getByLabelText('6-digit code');
    await user.click(screen.getByRole('button', { name: 'Confirm and turn on' }));
    expect(await screen.findByText(twoFactorMessages.codeRequired)).toBeTruthy();
    await user.type(code, '12a');
    await user.click(screen.getByRole('button', { name: 'Confirm and turn on' }));
    expect(await screen.findByText(twoFactorMessages.codeFormat)).toBeTruthy();
    expect(writes(calls)).toEqual([
      ['POST', '/v1/auth/two-factor/setup', { password: 'not-it' }],
      ['POST', '/v1/auth/two-factor/setup', { password: 'right-one' }],
    ]);

    await user.clear(code);
    await user.type(code, '123 456');
    await user.click(screen.getByRole('button', { name: 'Confirm and turn on' }));
    expect(await screen.findByText(twoFactorMessages.codeInvalid)).toBeTruthy();

    await user.clear(code);
    await user.type(code, '654321');
    await user.click(screen.getByRole('button', { name: 'Confirm and turn on' }));
    const list = await screen.findByRole('list', { name: 'Your recovery codes' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(recoveryCodes);
    const download = screen.getByRole('link', { name: 'Download codes' });
    expect(download.getAttribute('download')).toBe('kestrel-recovery-codes.txt');
    expect(decodeURIComponent(download.getAttribute('href') ?? '')).toContain(recoveryCodes.join('\n'));
    expect(writes(calls).slice(2)).toEqual([
      ['POST', '/v1/auth/two-factor/enable', { code: '123456', password: 'right-one' }],
      ['POST', '/v1/auth/two-factor/enable', { code: '654321', password: 'right-one' }],
    ]);

    // Shown once: after "saved", the section shows it on and the count, never the codes again.
    await user.click(screen.getByRole('button', { name: 'I have saved my codes' }));
    expect(await screen.findByText('On')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Your recovery codes' })).toBeNull();
    expect(screen.getByText(/Recovery codes left/).textContent).toBe('Recovery codes left: 10');
  });

  it('turns off only with a code: required under the field, the refusal under it, then off', async () => {
    let enabled = true;
    let tries = 0;
    const calls = stubApi({
      'GET /v1/auth/passkeys': success([]),
      'GET /v1/auth/two-factor': () => success({ enabled, recoveryCodesLeft: enabled ? 7 : 0 }),
      'POST /v1/auth/two-factor/disable': () => {
        tries += 1;
        if (tries === 1) return refusal(twoFactorMessages.recoveryCodeInvalid, 'recovery_code_invalid');
        enabled = false;
        return success(null, twoFactorMessages.disabled);
      },
    });
    const { user } = renderPage(<TwoFactorSection />);
    expect((await screen.findByText(/Recovery codes left/)).textContent).toBe('Recovery codes left: 7');
    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    await user.click(screen.getByRole('button', { name: 'Turn off two-factor' }));
    expect(await screen.findByText(twoFactorMessages.codeRequired)).toBeTruthy();
    expect(writes(calls)).toEqual([]);

    const field = screen.getByLabelText('Code from your app or a recovery code');
    await user.type(field, 'zzzzz-zzzzz');
    await user.click(screen.getByRole('button', { name: 'Turn off two-factor' }));
    expect(await screen.findByText(twoFactorMessages.recoveryCodeInvalid)).toBeTruthy();
    await user.clear(field);
    await user.type(field, '246810');
    await user.click(screen.getByRole('button', { name: 'Turn off two-factor' }));
    expect(await screen.findByText(twoFactorMessages.disabled)).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Turn on' })).toBeTruthy());
    expect(writes(calls)).toEqual([
      ['POST', '/v1/auth/two-factor/disable', { code: 'zzzzz-zzzzz' }],
      ['POST', '/v1/auth/two-factor/disable', { code: '246810' }],
    ]);
  });

  it('makes new recovery codes with an app code: required under the field, the refusal under it, then the ten new codes once', async () => {
    let tries = 0;
    const codes = Array.from({ length: 10 }, (_, i) => `n${i}aaa-bbbbb`);
    const calls = stubApi({
      'GET /v1/auth/passkeys': success([]),
      'GET /v1/auth/two-factor': () => success({ enabled: true, recoveryCodesLeft: tries > 1 ? 10 : 2 }),
      'POST /v1/auth/two-factor/recovery-codes': () => {
        tries += 1;
        if (tries === 1) return refusal(twoFactorMessages.codeInvalid, 'second_factor_invalid');
        return success({ recoveryCodes: codes }, twoFactorMessages.recoveryCodesRenewed);
      },
    });
    const { user } = renderPage(<TwoFactorSection />);
    expect((await screen.findByText(/Recovery codes left/)).textContent).toBe('Recovery codes left: 2');
    await user.click(screen.getByRole('button', { name: twoFactorSectionText.renew }));
    const form = screen.getByRole('form', { name: twoFactorSectionText.renew });
    await user.click(within(form).getByRole('button', { name: twoFactorSectionText.renewConfirm }));
    expect(await within(form).findByText(twoFactorMessages.codeRequired)).toBeTruthy();
    expect(writes(calls)).toEqual([]);

    const field = within(form).getByLabelText(twoFactorSectionText.renewCode);
    await user.type(field, '111111');
    await user.click(within(form).getByRole('button', { name: twoFactorSectionText.renewConfirm }));
    expect(await within(form).findByText(twoFactorMessages.codeInvalid)).toBeTruthy();
    await user.clear(field);
    await user.type(field, '246810');
    await user.click(within(form).getByRole('button', { name: twoFactorSectionText.renewConfirm }));
    expect(await screen.findByText(twoFactorSectionText.recoveryTitle)).toBeTruthy();
    for (const code of codes) expect(screen.getByText(code)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: twoFactorSectionText.done }));
    expect((await screen.findByText(/Recovery codes left/)).textContent).toBe('Recovery codes left: 10');
    expect(writes(calls)).toEqual([
      ['POST', '/v1/auth/two-factor/recovery-codes', { code: '111111' }],
      ['POST', '/v1/auth/two-factor/recovery-codes', { code: '246810' }],
    ]);
  });

  it('with a passkey and no app, says two-factor sign-in is on with it, and offers an app as another way', async () => {
    stubApi({
      'GET /v1/auth/two-factor': success({ enabled: false, recoveryCodesLeft: 0 }),
      'GET /v1/auth/passkeys': success([{ _id: 'cred-1', name: 'This laptop', createdAt: '2026-11-25T09:12:00.000Z', lastUsedAt: null, backedUp: false }]),
    });
    renderPage(<TwoFactorSection />);
    expect(await screen.findByText(passkeyText.onWithPasskey)).toBeTruthy();
    expect(screen.getByText(passkeyText.onWithPasskeyHint)).toBeTruthy();
    expect(screen.getByRole('button', { name: passkeyText.addApp })).toBeTruthy();
  });
});
