import { screen, within } from '@testing-library/react';
import { messages, passkeyMessages, passkeyText, twoFactorMessages } from '@kestrel/shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage, signIn, stubApi, success, writes } from '../../../test/render.tsx';
import type * as PasskeysLib from '../../../lib/passkeys.ts';
import { PasskeysSection } from './PasskeysSection.tsx';

// The browser's passkey prompt, answered at once (the real one is a journey's: e2e/journeys/passkeys.spec.ts).
const assertion = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' }, clientExtensionResults: {} };
vi.mock('../../../lib/passkeys.ts', async (importOriginal) => ({ ...(await importOriginal<typeof PasskeysLib>()), passkeyAssertion: vi.fn(async () => assertion) }));

const passkey = { _id: 'cred-1', name: 'This laptop', createdAt: '2026-11-25T09:12:00.000Z', lastUsedAt: null, backedUp: false };

describe('My Account → Security: passkeys', () => {
  beforeEach(signIn);

  it('lists the passkeys; adding one needs a name and the password (nothing is sent without them), and a wrong password shows under its field', async () => {
    const calls = stubApi({
      'GET /v1/auth/passkeys': success([passkey]),
      'POST /v1/auth/passkeys/options': { status: 400, body: { status: 'error', error: passkeyMessages.passwordWrong, code: 'password_invalid', fields: { password: passkeyMessages.passwordWrong } } },
    });
    const { user } = renderPage(<PasskeysSection />);
    const list = await screen.findByRole('list', { name: passkeyText.title });
    expect(within(list).getByText('This laptop')).toBeTruthy();
    expect(within(list).getByText(/never/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: passkeyText.add }));
    await user.click(screen.getByRole('button', { name: passkeyText.create }));
    expect(await screen.findByText(passkeyMessages.nameRequired)).toBeTruthy();
    expect(screen.getByText(messages.login.passwordRequired)).toBeTruthy();
    expect(writes(calls)).toEqual([]);

    await user.type(screen.getByLabelText(passkeyText.name), 'Work phone');
    await user.type(screen.getByLabelText(passkeyText.password), 'not-it');
    await user.click(screen.getByRole('button', { name: passkeyText.create }));
    expect(await screen.findByText(passkeyMessages.passwordWrong)).toBeTruthy();
    expect(writes(calls)).toEqual([['POST', '/v1/auth/passkeys/options', { password: 'not-it' }]]);
  });

  it('renames a passkey: an empty name is refused here (nothing sent), the new name is saved and shown', async () => {
    let name = 'This laptop';
    const calls = stubApi({
      'GET /v1/auth/passkeys': () => success([{ ...passkey, name }]),
      'PATCH /v1/auth/passkeys/cred-1': (request) => {
        name = (request.body as { name: string }).name;
        return success({ ...passkey, name }, passkeyMessages.renamed);
      },
    });
    const { user } = renderPage(<PasskeysSection />);
    await user.click(await screen.findByRole('button', { name: `${passkeyText.rename}: This laptop` }));
    const form = screen.getByRole('form', { name: `${passkeyText.renameTitle}: This laptop` });
    const field = within(form).getByLabelText(passkeyText.name);
    expect((field as HTMLInputElement).value).toBe('This laptop');
    await user.clear(field);
    await user.click(within(form).getByRole('button', { name: passkeyText.save }));
    expect(await within(form).findByText(passkeyMessages.nameRequired)).toBeTruthy();
    expect(writes(calls)).toEqual([]);

    await user.type(field, 'Work phone');
    await user.click(within(form).getByRole('button', { name: passkeyText.save }));
    const list = await screen.findByRole('list', { name: passkeyText.title });
    expect(await within(list).findByText('Work phone')).toBeTruthy();
    expect(screen.queryByRole('form', { name: `${passkeyText.renameTitle}: This laptop` })).toBeNull();
    expect(writes(calls)).toEqual([['PATCH', '/v1/auth/passkeys/cred-1', { name: 'Work phone' }]]);
  });

  it('with the app on, removes with a code: none is refused here, a wrong one shows under its field, the right one removes it; no password field', async () => {
    let tries = 0;
    let left = [passkey];
    const calls = stubApi({
      'GET /v1/auth/passkeys': () => success(left),
      'GET /v1/auth/two-factor': success({ enabled: true, recoveryCodesLeft: 10 }),
      'POST /v1/auth/passkeys/cred-1/remove': () => {
        tries += 1;
        if (tries === 1) return { status: 400, body: { status: 'error', error: twoFactorMessages.codeInvalid, code: 'second_factor_invalid', fields: { code: twoFactorMessages.codeInvalid } } };
        left = [];
        return success(null, passkeyMessages.removed);
      },
    });
    const { user } = renderPage(<PasskeysSection />);
    await user.click(await screen.findByRole('button', { name: `${passkeyText.remove}: This laptop` }));
    const form = screen.getByRole('form', { name: `${passkeyText.removeTitle} This laptop` });
    expect(await within(form).findByText(passkeyText.removeHint)).toBeTruthy();
    expect(within(form).queryByLabelText(passkeyText.password)).toBeNull();
    await user.click(within(form).getByRole('button', { name: passkeyText.confirmRemove }));
    expect(await within(form).findByText(passkeyMessages.confirmRequired)).toBeTruthy();
    expect(writes(calls)).toEqual([]);

    const code = within(form).getByLabelText(passkeyText.code);
    await user.type(code, '111111');
    await user.click(within(form).getByRole('button', { name: passkeyText.confirmRemove }));
    expect(await within(form).findByText(twoFactorMessages.codeInvalid)).toBeTruthy();

    await user.clear(code);
    await user.type(code, '246810');
    await user.click(within(form).getByRole('button', { name: passkeyText.confirmRemove }));
    expect(await screen.findByText(passkeyText.none)).toBeTruthy();
    expect(writes(calls)).toEqual([
      ['POST', '/v1/auth/passkeys/cred-1/remove', { code: '111111' }],
      ['POST', '/v1/auth/passkeys/cred-1/remove', { code: '246810' }],
    ]);
  });

  it('with passkeys only, removes with one of them: the browser\'s prompt over a confirmation challenge, its assertion sent', async () => {
    let left = [passkey];
    const calls = stubApi({
      'GET /v1/auth/passkeys': () => success(left),
      'GET /v1/auth/two-factor': success({ enabled: false, recoveryCodesLeft: 0 }),
      'POST /v1/auth/passkeys/confirm/options': success({ challenge: 'Y2hhbGxlbmdl', allowCredentials: [{ id: 'cred-1', type: 'public-key' }] }),
      'POST /v1/auth/passkeys/cred-1/remove': () => {
        left = [];
        return success(null, passkeyMessages.removed);
      },
    });
    const { user } = renderPage(<PasskeysSection />);
    await user.click(await screen.findByRole('button', { name: `${passkeyText.remove}: This laptop` }));
    const form = screen.getByRole('form', { name: `${passkeyText.removeTitle} This laptop` });
    expect(await within(form).findByText(passkeyText.removeHintPasskeysOnly)).toBeTruthy();
    expect(within(form).queryByRole('textbox')).toBeNull();
    await user.click(within(form).getByRole('button', { name: passkeyText.confirmRemove }));
    expect(await screen.findByText(passkeyText.none)).toBeTruthy();
    expect(writes(calls)).toEqual([
      ['POST', '/v1/auth/passkeys/confirm/options', undefined],
      ['POST', '/v1/auth/passkeys/cred-1/remove', { passkey: assertion }],
    ]);
  });
});
