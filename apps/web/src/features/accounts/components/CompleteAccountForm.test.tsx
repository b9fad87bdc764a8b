import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getSession } from '../../../lib/session.ts';
import { userProfileFixture } from '../../../test/fixtures.ts';
import { renderPage, signedIn, signIn, stubApi, success, writes, type StubbedCall } from '../../../test/render.tsx';
import { CompleteAccountForm } from './CompleteAccountForm.tsx';
import { fieldError } from '../../../test/form.ts';

/** The public countries list: a map of code to name (GET /data/v1/countries, no envelope). */
const countries = { 'GET /data/v1/countries': { status: 200, body: { US: { country: 'United States' }, BD: { country: 'Bangladesh' } } } };

const created = { _id: 'acc-9', accountNumber: 'A900', accountEmail: 'grace@example.test', userName: 'grace.h' };
const uploaded = success([{ _id: 'img-1', url: '/v1/account/acc-9/identity-images/img-1', createdAt: '2026-11-26T10:00:00.000Z' }]);
const createPath = 'POST /v1/account/create';
const uploadPath = 'PATCH /v1/account/upload-image';

const dobLabel = 'Date of birth (16 years required)';
const text = {
  'Account holder full name': 'Grace Hopper',
  Email: 'grace@example.test',
  Phone: '+1 555-010-0002',
  Username: 'grace.h',
  [dobLabel]: '1990-04-12',
  City: 'Arlington',
  State: 'VA',
  Street: '1 Navy Way',
  'Zip code': '22201',
  Occupation: 'Rear admiral',
  'Annual income': '120000',
  'Identification number': 'P-778',
  'new TPIN': '4826',
};
type TextLabel = keyof typeof text;

const png = (name: string) => new File([new Uint8Array([137, 80, 78, 71])], name, { type: 'image/png' });

type User = ReturnType<typeof renderPage>['user'];

/** A whole personal account, Bangladesh chosen from the countries list, one image. */
async function fill(user: User, overrides: Partial<Record<TextLabel, string>> = {}, type: 'Personal' | 'Business' = 'Personal') {
  await user.click(screen.getByLabelText(type));
  for (const [label, value] of Object.entries({ ...text, ...overrides })) {
    const input = screen.getByLabelText(label);
    await user.clear(input);
    if (value) await user.type(input, value);
  }
  await user.selectOptions(await screen.findByLabelText('Country'), 'Bangladesh');
  await user.selectOptions(screen.getByLabelText('Notification preference'), 'Email');
  await user.selectOptions(screen.getByLabelText('Identification type'), 'Passport');
  await user.upload(screen.getByLabelText('Identity images'), png('passport-front.png'));
}

const submit = (user: User) => user.click(screen.getByRole('button', { name: 'Submit' }));
/** After a failed attempt the button (red) reads 'Try again'. */
const submitAgain = (user: User) => user.click(screen.getByRole('button', { name: 'Try again' }));

/** The account-create body the spec lists for the values `fill` types. */
const personalBody = {
  users: [{ userId: signedIn.userId, tpin: '4826' }],
  accountHolderName: 'Grace Hopper',
  userName: 'grace.h',
  accountEmail: 'grace@example.test',
  accountPhone: '+15550100002',
  accountType: 'personal',
  companyName: '',
  businessName: '',
  identity: { type: 'passport', number: 'P-778' },
  dateOfBirth: '1990-04-12',
  address: { street: '1 Navy Way', city: 'Arlington', state: 'VA', zipCode: '22201', country: 'BD' },
  balance: [{ currency: 'USD' }],
  notificationPreference: 'email',
  occupation: 'Rear admiral',
  annualIncome: '120000',
  gatewayFee: { fixed: 0, percentage: 2 },
  paymentRequestFee: { fixed: 0, percentage: 2 },
};

/** What went to the upload as multipart fields, the files by name. */
function uploadParts(calls: StubbedCall[]) {
  const form = calls.find((call) => call.method === 'PATCH')?.body as FormData;
  return { accountId: form.get('accountId'), accountNumber: form.get('accountNumber'), identityImage: form.getAll('identityImage').map((file) => (file as File).name) };
}

/** The reload to /dashboard after success is the browser's; it is watched, not made. */
const watchReload = () => vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);

describe('the complete account form', () => {
  beforeEach(() => {
    signIn();
    sessionStorage.clear();
    toast.remove();
  });

  it('shows every field’s required message and "Account type is required!", and sends nothing', async () => {
    const calls = stubApi(countries);
    const { user } = renderPage(<CompleteAccountForm user={userProfileFixture()} />, { path: '/new-account' });
    expect(screen.getByRole('heading', { name: 'Complete Your Account' })).toBeTruthy();
    await screen.findByRole('option', { name: 'Bangladesh' });
    await submit(user);
    expect(await screen.findByText('Account type is required!')).toBeTruthy();
    for (const label of ['Account holder full name', 'Email', 'Phone', 'Username', 'Country', 'City', 'State', 'Street', 'Zip code', 'Notification preference', 'Occupation', 'Annual income']) {
      expect(fieldError(label)).toBe(`${label} is required`);
    }
    expect(fieldError(dobLabel)).toBe('Date of birth is required');
    expect(fieldError('Identification type')).toBe('Identification type is required');
    expect(fieldError('Identification number')).toBe('Identification number is required');
    expect(fieldError('Identity images')).toBe('Identity images is required');
    expect(fieldError('new TPIN')).toBe('TPIN is required');
    // USD is the one currency and chosen from the start.
    expect((screen.getByLabelText('Currency') as HTMLSelectElement).value).toBe('USD');
    expect(fieldError('Currency')).toBeNull();
    expect(writes(calls)).toEqual([]);
  });

  it('asks business and company name of a business account only, each required', async () => {
    const calls = stubApi(countries);
    const { user } = renderPage(<CompleteAccountForm user={userProfileFixture()} />, { path: '/new-account' });
    expect(screen.queryByLabelText('Business name')).toBeNull();
    await user.click(screen.getByLabelText('Business'));
    expect(screen.getByRole('heading', { name: 'Complete Your Business Account' })).toBeTruthy();
    await submit(user);
    await waitFor(() => expect(fieldError('Business name')).toBe('Business name is required'));
    expect(fieldError('Company name')).toBe('Company name is required');
    await user.click(screen.getByLabelText('Personal'));
    expect(screen.getByRole('heading', { name: 'Complete Your Personal Account' })).toBeTruthy();
    expect(screen.queryByLabelText('Business name')).toBeNull();
    expect(screen.queryByLabelText('Company name')).toBeNull();
    expect(writes(calls)).toEqual([]);
  });

  it('keeps the new TPIN to 4 digits: "TPIN will be only digit", "TPIN must be 4 digits"', async () => {
    const calls = stubApi(countries);
    const { user } = renderPage(<CompleteAccountForm user={userProfileFixture()} />, { path: '/new-account' });
    const tpin = screen.getByLabelText('new TPIN') as HTMLInputElement;
    expect(tpin.type).toBe('password');
    await user.type(tpin, '123456');
    expect(tpin.value).toBe('1234');
    await user.clear(tpin);
    await user.type(tpin, '12a4');
    await submit(user);
    await waitFor(() => expect(fieldError('new TPIN')).toBe('TPIN will be only digit'));
    await user.clear(tpin);
    await user.type(tpin, '123');
    await submit(user);
    await waitFor(() => expect(fieldError('new TPIN')).toBe('TPIN must be 4 digits'));
    // The show/hide toggle reveals what was typed.
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(tpin.type).toBe('text');
    expect(writes(calls)).toEqual([]);
  });

  it('refuses a malformed email, phone and username, a reserved username, a holder under 16 and a document that is not an image', async () => {
    const calls = stubApi(countries);
    const { user } = renderPage(<CompleteAccountForm user={userProfileFixture()} />, { path: '/new-account' });
    const now = new Date();
    const fifteen = `${now.getFullYear() - 15}-01-01`;
    await fill(user, { Email: 'grace@', Phone: '12ab', Username: '7grace', [dobLabel]: fifteen });
    // A file picker can be talked past its accept="image/*" (drag and drop, "All files").
    fireEvent.change(screen.getByLabelText('Identity images'), { target: { files: [new File(['%PDF-1.4'], 'scan.pdf', { type: 'application/pdf' })] } });
    await submit(user);
    await waitFor(() => expect(fieldError('Email')).toBe('Invalid email address'));
    expect(fieldError('Phone')).toBe('Invalid phone number');
    expect(fieldError('Username')).toBe('Username must be 3 to 30 letters, digits, dots, dashes or underscores, starting with a letter');
    expect(fieldError(dobLabel)).toBe('You must be at least 16 years old');
    expect(fieldError('Identity images')).toBe('Identity documents must be images (JPEG, PNG, WebP or GIF)');

    await user.clear(screen.getByLabelText('Username'));
    await user.type(screen.getByLabelText('Username'), 'search');
    await submit(user);
    await waitFor(() => expect(fieldError('Username')).toBe('This username is not available'));
    expect(writes(calls)).toEqual([]);
  });

  it('shows countries by name and sends the code; a personal account sends company and business name empty, then its images', async () => {
    const calls = stubApi({ ...countries, [createPath]: success(created), [uploadPath]: uploaded });
    const reload = watchReload();
    const { user } = renderPage(<CompleteAccountForm user={userProfileFixture()} />, { path: '/new-account' });
    const country = screen.getByLabelText('Country') as HTMLSelectElement;
    await screen.findByRole('option', { name: 'Bangladesh' });
    // Sorted by name; the value of each is its code.
    expect(within(country).getAllByRole('option').map((option) => [option.textContent, (option as HTMLOptionElement).value])).toEqual([
      ['Select a country', ''],
      ['Bangladesh', 'BD'],
      ['United States', 'US'],
    ]);
    await fill(user);
    expect(country.value).toBe('BD');
    expect(within(screen.getByRole('list', { name: 'Chosen images' })).getByText('passport-front.png')).toBeTruthy();
    await submit(user);
    await waitFor(() => expect(reload).toHaveBeenCalledWith('/dashboard'));
    expect(writes(calls)[0]).toEqual(['POST', '/v1/account/create', personalBody]);
    expect(uploadParts(calls)).toEqual({ accountId: 'acc-9', accountNumber: 'A900', identityImage: ['passport-front.png'] });
    expect(screen.getByRole('button', { name: 'Done' })).toBeTruthy();
    // The new account is the one the portal opens on, and the toast waits for the reload.
    expect(getSession()).toMatchObject({ accountNumber: 'A900', accountEmail: 'grace@example.test', accountUserName: 'grace.h' });
    expect(JSON.parse(sessionStorage.getItem('kestrel.flash') ?? 'null')).toEqual({ kind: 'success', message: 'Congratulations! Your Account Done' });
  });

  it('sends a business account’s business and company names', async () => {
    const calls = stubApi({ ...countries, [createPath]: success(created), [uploadPath]: uploaded });
    const reload = watchReload();
    const { user } = renderPage(<CompleteAccountForm user={userProfileFixture()} />, { path: '/new-account' });
    await user.click(screen.getByLabelText('Business'));
    await user.type(screen.getByLabelText('Business name'), 'Cobol Works');
    await user.type(screen.getByLabelText('Company name'), 'Cobol Works Ltd');
    await fill(user, {}, 'Business');
    await submit(user);
    await waitFor(() => expect(reload).toHaveBeenCalledWith('/dashboard'));
    expect(writes(calls)[0]).toEqual(['POST', '/v1/account/create', { ...personalBody, accountType: 'business', businessName: 'Cobol Works', companyName: 'Cobol Works Ltd' }]);
  });

  it('starts a first account from the signed-up user’s name, email and phone', async () => {
    stubApi(countries);
    renderPage(<CompleteAccountForm user={userProfileFixture({ accounts: [] })} />, { path: '/' });
    expect((screen.getByLabelText('Account holder full name') as HTMLInputElement).value).toBe('Ada Lovelace');
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe(signedIn.account.accountEmail);
    expect((screen.getByLabelText('Phone') as HTMLInputElement).value).toBe('+15550001111');
    expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('');
  });

  it('puts a taken username under its field, and a taken identity number in a toast', async () => {
    let answer = { status: 409, body: { status: 'error', error: 'userName is already exist!', code: 'conflict' } };
    const calls = stubApi({ ...countries, [createPath]: () => answer });
    const { user } = renderPage(<CompleteAccountForm user={userProfileFixture()} />, { path: '/new-account' });
    await fill(user);
    await submit(user);
    await waitFor(() => expect(fieldError('Username')).toBe('Username already exists!'));

    answer = { status: 409, body: { status: 'error', error: 'identity.number is already exist!', code: 'conflict' } };
    await submitAgain(user);
    expect(await screen.findByText('Identity number is already used!')).toBeTruthy();
    expect(writes(calls).map((call) => call[1])).toEqual(['/v1/account/create', '/v1/account/create']);
  });

  it('after the images failed to upload, a second submit uploads them again without opening another account', async () => {
    let uploads = 0;
    const calls = stubApi({
      ...countries,
      [createPath]: success(created),
      [uploadPath]: () => {
        uploads += 1;
        return uploads === 1 ? { status: 413, body: { status: 'error', error: 'Each identity image must be at most 5 MB', code: 'payload_too_large' } } : uploaded;
      },
    });
    const reload = watchReload();
    const { user } = renderPage(<CompleteAccountForm user={userProfileFixture()} />, { path: '/new-account' });
    await fill(user);
    await submit(user);
    expect(await screen.findByText('Each identity image must be at most 5 MB')).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
    await submitAgain(user);
    await waitFor(() => expect(reload).toHaveBeenCalledWith('/dashboard'));
    expect(writes(calls).map((call) => `${call[0] as string} ${call[1] as string}`)).toEqual([createPath, uploadPath, uploadPath]);
  });

  it('Cancel empties the form and goes to the dashboard, or says an account is needed when the user has none', async () => {
    stubApi(countries);
    const { user, router, unmount } = renderPage(<CompleteAccountForm user={userProfileFixture()} />, { path: '/new-account', routes: { '/dashboard': <p>dashboard</p> } });
    await user.click(screen.getByLabelText('Business'));
    await user.type(screen.getByLabelText('Username'), 'grace.h');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    unmount();

    renderPage(<CompleteAccountForm user={userProfileFixture({ accounts: [] })} />, { path: '/' });
    await user.click(screen.getByLabelText('Business'));
    await user.type(screen.getByLabelText('Username'), 'grace.h');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('You must have complete your account for access Kestrel portal')).toBeTruthy();
    expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Business') as HTMLInputElement).checked).toBe(false);
    expect(screen.queryByLabelText('Business name')).toBeNull();
  });
});
