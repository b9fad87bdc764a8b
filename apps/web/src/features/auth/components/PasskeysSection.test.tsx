import { screen, within } from '@testing-library/react';
import { passkeyMessages, passkeyText } from '@kestrel/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, signIn, stubApi, success, writes } from '../../../test/render.tsx';
import { PasskeysSection } from './PasskeysSection.tsx';

const passkey = { _id: 'cred-1', name: 'This laptop', createdAt: '2026-11-25T09:12:00.000Z', lastUsedAt: null, backedUp: false };

describe('My Account → Security: passkeys', () => {
  beforeEach(signIn);

  it('lists the passkeys; adding one needs a name first (nothing is sent without it)', async () => {
    const calls = stubApi({ 'GET /v1/auth/passkeys': success([passkey]) });
    const { user } = renderPage(<PasskeysSection />);
    const list = await screen.findByRole('list', { name: passkeyText.title });
    expect(within(list).getByText('This laptop')).toBeTruthy();
    expect(within(list).getByText(/never/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: passkeyText.add }));
    await user.click(screen.getByRole('button', { name: passkeyText.create }));
    expect(await screen.findByText(passkeyMessages.nameRequired)).toBeTruthy();
    expect(writes(calls)).toEqual([]);
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

  it('removes with the password or a code: neither is refused here, a wrong password shows under its field, the right one removes it', async () => {
    let tries = 0;
    let left = [passkey];
    const calls = stubApi({
      'GET /v1/auth/passkeys': () => success(left),
      'POST /v1/auth/passkeys/cred-1/remove': () => {
        tries += 1;
        if (tries === 1) return { status: 400, body: { status: 'error', error: passkeyMessages.passwordWrong, code: 'password_invalid', fields: { password: passkeyMessages.passwordWrong } } };
        left = [];
        return success(null, passkeyMessages.removed);
      },
    });
    const { user } = renderPage(<PasskeysSection />);
    await user.click(await screen.findByRole('button', { name: `${passkeyText.remove}: This laptop` }));
    const form = screen.getByRole('form', { name: `${passkeyText.removeTitle} This laptop` });
    await user.click(within(form).getByRole('button', { name: passkeyText.confirmRemove }));
    expect(await within(form).findByText(passkeyMessages.confirmRequired)).toBeTruthy();
    expect(writes(calls)).toEqual([]);

    const password = within(form).getByLabelText(passkeyText.password);
    await user.type(password, 'wrong-one');
    await user.click(within(form).getByRole('button', { name: passkeyText.confirmRemove }));
    expect(await within(form).findByText(passkeyMessages.passwordWrong)).toBeTruthy();

    await user.clear(password);
    await user.type(password, 'right-one');
    await user.click(within(form).getByRole('button', { name: passkeyText.confirmRemove }));
    expect(await screen.findByText(passkeyText.none)).toBeTruthy();
    expect(writes(calls)).toEqual([
      ['POST', '/v1/auth/passkeys/cred-1/remove', { password: 'wrong-one' }],
      ['POST', '/v1/auth/passkeys/cred-1/remove', { password: 'right-one' }],
    ]);
  });
});
