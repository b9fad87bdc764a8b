import { readdirSync } from 'node:fs';
import path from 'node:path';
import { messages } from '@kestrel/shared';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { accountBodyFor, createAccount, createUser, fundAccount, unique, type TestUser } from '../../../test/factories.ts';
import { tinyPng } from '../../../test/images.ts';
import { accountNumberValid, luhnCheckDigit } from './account-number.ts';
import { tpinMac } from './tpin.ts';

function create(user: TestUser, body: unknown) {
  return api('POST', '/v1/account/create', { token: user.token, body });
}

/** A UTC calendar date `years` years before today, YYYY-MM-DD. */
function yearsAgo(years: number, extraDays = 0): string {
  const now = new Date();
  const date = new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate() + extraDays));
  return date.toISOString().slice(0, 10);
}

describe('account numbers', () => {
  it('carry a Luhn check digit', () => {
    expect(luhnCheckDigit('7992739871')).toBe(3);
    expect(accountNumberValid('79927398713')).toBe(true);
    expect(accountNumberValid('79927398714')).toBe(false);
    expect(accountNumberValid('abc')).toBe(false);
  });

  it('are valid and unique across many creates', async () => {
    const user = await createUser();
    const accounts = await Promise.all(Array.from({ length: 12 }, () => createAccount(user)));
    const numbers = accounts.map((account) => account.accountNumber);
    expect(new Set(numbers).size).toBe(numbers.length);
    for (const number of numbers) expect(accountNumberValid(number), number).toBe(true);
  });
});

describe('POST /v1/account/create', () => {
  it('opens the account and answers the spec shape', async () => {
    const user = await createUser();
    const body = accountBodyFor(user);
    const response = await create(user, body);
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      status: 'success',
      message: messages.account.created,
      data: { _id: expect.any(String), accountNumber: expect.stringMatching(/^[1-9]\d{11}$/), accountEmail: body.accountEmail, userName: body.userName },
    });

    const profile = await api('GET', `/v1/user/${user.userId}`, { token: user.token });
    expect(profile.body.data.isAccountHolder).toBe(true);
    expect(profile.body.data.accounts.map((a: { _id: string }) => a._id)).toEqual([response.body.data._id]);
  });

  it('stores the TPIN as a keyed hash of the user name and the TPIN (key from SECRET_KEY), never as given', async () => {
    const user = await createUser();
    const account = await createAccount(user);
    const { db, config } = await testServer();
    const row = await db.selectFrom('accounts').select('tpinHash').where('id', '=', account.accountId).executeTakeFirstOrThrow();
    expect(row.tpinHash).toBe(tpinMac(config.secretKey, account.userName, account.tpin));
    expect(row.tpinHash).not.toBe(tpinMac('another secret', account.userName, account.tpin));
    expect(row.tpinHash).not.toContain(account.tpin);
  });

  it('answers every required field with "{label} is required" and the account type with its own message', async () => {
    const user = await createUser();
    const response = await create(user, {
      users: [{ userId: user.userId, tpin: '' }],
      accountHolderName: '',
      userName: '',
      accountEmail: '',
      accountPhone: '',
      accountType: '',
      identity: { type: '', number: '' },
      dateOfBirth: '',
      address: { street: '', city: '', state: '', zipCode: '', country: '' },
      balance: [{ currency: '' }],
      notificationPreference: '',
      occupation: '',
      annualIncome: '',
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.fields).toEqual({
      'users.0.tpin': 'TPIN is required',
      accountHolderName: 'Account holder full name is required',
      userName: 'Username is required',
      accountEmail: 'Email is required',
      accountPhone: 'Phone is required',
      accountType: 'Account type is required!',
      'identity.type': 'Identification type is required',
      'identity.number': 'Identification number is required',
      dateOfBirth: 'Date of birth is required',
      'address.street': 'Street is required',
      'address.city': 'City is required',
      'address.state': 'State is required',
      'address.zipCode': 'Zip code is required',
      'address.country': 'Country is required',
      'balance.0.currency': 'Currency is required',
      notificationPreference: 'Notification preference is required',
      occupation: 'Occupation is required',
      annualIncome: 'Annual income is required',
    });
    const missingType = await create(user, { ...accountBodyFor(user), accountType: undefined });
    expect(missingType.body.fields).toEqual({ accountType: 'Account type is required!' });
    expect(missingType.body.error).toBe('Account type is required!');
  });

  it('requires business name and company name for business accounts only', async () => {
    const user = await createUser();
    const business = await create(user, accountBodyFor(user, { accountType: 'business' }));
    expect(business.status).toBe(400);
    expect(business.body.fields).toEqual({ businessName: 'Business name is required', companyName: 'Company name is required' });
    // Shown together with every other problem, not only once the rest is valid.
    const alongside = await create(user, { ...accountBodyFor(user, { accountType: 'business' }), occupation: '' });
    expect(alongside.body.fields).toEqual({
      occupation: 'Occupation is required',
      businessName: 'Business name is required',
      companyName: 'Company name is required',
    });
    const personal = await create(user, accountBodyFor(user, { accountType: 'personal' }));
    expect(personal.status).toBe(201);
  });

  it('takes a TPIN of exactly 4 digits', async () => {
    const user = await createUser();
    const withTpin = (tpin: unknown) => create(user, accountBodyFor(user, { users: [{ userId: user.userId, tpin: tpin as string }] }));
    expect((await withTpin('12a4')).body.fields).toEqual({ 'users.0.tpin': 'TPIN will be only digit' });
    expect((await withTpin('123')).body.fields).toEqual({ 'users.0.tpin': 'TPIN must be 4 digits' });
    expect((await withTpin('12345')).body.fields).toEqual({ 'users.0.tpin': 'TPIN must be 4 digits' });
    expect((await withTpin(undefined)).body.fields).toEqual({ 'users.0.tpin': 'TPIN is required' });
    expect((await withTpin('0042')).status).toBe(201);
  });

  it('enforces the minimum age of 16 and refuses impossible dates', async () => {
    const user = await createUser();
    const young = await create(user, accountBodyFor(user, { dateOfBirth: yearsAgo(16, 1) }));
    expect(young.status).toBe(400);
    expect(young.body.fields).toEqual({ dateOfBirth: messages.account.tooYoung });
    expect(young.body.error).toBe(messages.account.tooYoung);
    const bad = await create(user, accountBodyFor(user, { dateOfBirth: '2001-02-30' }));
    expect(bad.body.fields).toEqual({ dateOfBirth: messages.account.dateOfBirthInvalid });
    const sixteenToday = await create(user, accountBodyFor(user, { dateOfBirth: yearsAgo(16) }));
    expect(sixteenToday.status).toBe(201);
  });

  it('checks the choices: currency USD only, identity types, notification preference, e-mail', async () => {
    const user = await createUser();
    const response = await create(user, {
      ...accountBodyFor(user),
      balance: [{ currency: 'EUR' }],
      identity: { type: 'birthCertificate', number: unique('id') },
      notificationPreference: 'pigeon',
      accountEmail: 'not-an-email',
      userName: '1234',
    });
    expect(response.status).toBe(400);
    expect(response.body.fields).toEqual({
      'balance.0.currency': 'Currency must be one of: USD',
      'identity.type': 'Identification type must be one of: nid, passport, drivingLicense, tradeLicense',
      notificationPreference: 'Notification preference must be one of: email, sms',
      accountEmail: 'Invalid email address',
      userName: messages.account.userNameFormat,
    });
    for (const type of ['nid', 'passport', 'drivingLicense', 'tradeLicense'] as const) {
      const ok = await create(user, accountBodyFor(user, { identity: { type, number: unique('id') }, notificationPreference: 'sms' }));
      expect(ok.status, type).toBe(201);
    }
  });

  it('keeps user names that would collide with fixed paths free', async () => {
    const user = await createUser();
    const response = await create(user, accountBodyFor(user, { userName: 'Search' }));
    expect(response.body.fields).toEqual({ userName: messages.account.userNameReserved });
  });

  it('refuses unknown fields', async () => {
    const user = await createUser();
    const response = await create(user, { ...accountBodyFor(user), identityVerified: true });
    expect(response.status).toBe(400);
  });

  it.each([
    ['userName', 'userName is already exist!', (taken: ReturnType<typeof accountBodyFor>) => ({ userName: taken.userName.toUpperCase() })],
    ['accountEmail', 'accountEmail is already exist!', (taken: ReturnType<typeof accountBodyFor>) => ({ accountEmail: taken.accountEmail.toUpperCase() })],
    ['accountPhone', 'accountPhone is already exist!', (taken: ReturnType<typeof accountBodyFor>) => ({ accountPhone: taken.accountPhone })],
    ['identity.number', 'identity.number is already exist!', (taken: ReturnType<typeof accountBodyFor>) => ({ identity: { type: 'passport' as const, number: taken.identity.number } })],
  ])('answers 409 for a taken %s: "%s"', async (field, message, clash) => {
    const user = await createUser();
    const first = accountBodyFor(user);
    expect((await create(user, first)).status).toBe(201);
    const other = await createUser();
    const response = await create(other, accountBodyFor(other, clash(first)));
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ status: 'error', error: message, code: expect.any(String), fields: { [field]: message } });
    const profile = await api('GET', `/v1/user/${other.userId}`, { token: other.token });
    expect(profile.body.data.accounts).toEqual([]);
  });

  it('stores the fees as fixed 0, percentage 2 whatever the client sends', async () => {
    const user = await createUser();
    const account = await createAccount(user, { gatewayFee: { fixed: 5, percentage: 0 }, paymentRequestFee: { fixed: '10', percentage: 0.1 } });
    const response = await api('GET', `/v1/account/${account.accountId}`, { token: user.token });
    expect(response.body.data.gatewayFee).toEqual({ fixed: 0, percentage: 2 });
    expect(response.body.data.paymentRequestFee).toEqual({ fixed: 0, percentage: 2 });
    const without = await createAccount(user, { gatewayFee: undefined, paymentRequestFee: undefined });
    const second = await api('GET', `/v1/account/${without.accountId}`, { token: user.token });
    expect(second.body.data.gatewayFee).toEqual({ fixed: 0, percentage: 2 });
  });

  it('opens an account only for the caller: another user id in the body is refused', async () => {
    const user = await createUser();
    const victim = await createUser();
    const response = await create(user, accountBodyFor(victim));
    expect(response.status).toBe(403);
    expect(response.body.error).toBe('You can only open an account for yourself');
    const profile = await api('GET', `/v1/user/${victim.userId}`, { token: victim.token });
    expect(profile.body.data.accounts).toEqual([]);
  });

  it('requires a verified e-mail and a session', async () => {
    const unverified = await createUser({ verified: false });
    const response = await create(unverified, accountBodyFor(unverified));
    expect(response.status).toBe(403);
    expect(response.body.error).toBe(messages.account.emailNotVerified);
    const anonymous = await api('POST', '/v1/account/create', { body: accountBodyFor(unverified) });
    expect(anonymous.status).toBe(401);
  });

  it('records an "Account created" activity and an audit entry', async () => {
    const user = await createUser();
    const account = await createAccount(user);
    const activities = await api('GET', `/v1/activities?accountId=${account.accountId}`, { token: user.token });
    expect(activities.body.data[0].activities.map((a: { name: string }) => a.name)).toContain('Account created');
    const { db } = await testServer();
    const audit = await db.selectFrom('auditLog').select(['action', 'actorUserId']).where('subjectId', '=', account.accountId).execute();
    expect(audit).toEqual([{ action: 'account.created', actorUserId: user.userId }]);
  });
});

describe('GET /v1/account/{accountId | accountNumber | userName}', () => {
  it('answers the spec Account shape with the balance in major units', async () => {
    const user = await createUser();
    const body = accountBodyFor(user, { accountType: 'business', businessName: "Bea's Books", companyName: 'Bea Books LLC' });
    const account = await createAccount(user, body);
    await fundAccount(account.accountId, 500000);
    await fundAccount(account.accountId, 1250);
    const response = await api('GET', `/v1/account/${account.accountId}`, { token: user.token });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      _id: account.accountId,
      accountNumber: account.accountNumber,
      accountType: 'business',
      accountHolderName: body.accountHolderName,
      businessName: "Bea's Books",
      companyName: 'Bea Books LLC',
      userName: body.userName,
      accountEmail: body.accountEmail,
      accountPhone: body.accountPhone,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      balance: [{ currency: 'USD', amount: 5012.5 }],
      identity: { type: 'nid', number: body.identity.number, isVerified: false },
      identityImages: [],
      users: [{ userId: user.userId }],
      dateOfBirth: '1990-05-17',
      address: body.address,
      notificationPreference: 'email',
      occupation: 'Engineer',
      annualIncome: '50000',
      gatewayFee: { fixed: 0, percentage: 2 },
      paymentRequestFee: { fixed: 0, percentage: 2 },
    });
    for (const key of [account.accountNumber, account.userName, account.userName.toUpperCase()]) {
      const byKey = await api('GET', `/v1/account/${encodeURIComponent(key)}`, { token: user.token });
      expect(byKey.status, key).toBe(200);
      expect(byKey.body.data._id).toBe(account.accountId);
    }
  });

  it('answers a whole-dollar balance as a whole number and a new account as 0', async () => {
    const user = await createUser();
    const account = await createAccount(user);
    const empty = await api('GET', `/v1/account/${account.accountNumber}`, { token: user.token });
    expect(empty.body.data.balance).toEqual([{ currency: 'USD', amount: 0 }]);
    await fundAccount(account.accountId, 500000);
    const funded = await api('GET', `/v1/account/${account.accountNumber}`, { token: user.token });
    expect(funded.body.data.balance).toEqual([{ currency: 'USD', amount: 5000 }]);
  });

  it('drops business names on personal accounts', async () => {
    const user = await createUser();
    const account = await createAccount(user, { accountType: 'personal', businessName: 'Side hustle', companyName: 'Hustle Inc' });
    const response = await api('GET', `/v1/account/${account.accountId}`, { token: user.token });
    expect(response.body.data).toMatchObject({ businessName: null, companyName: null });
  });

  it("answers 404 'Account not available!' to anyone but the owner, by id, number or user name, leaking nothing", async () => {
    const owner = await createUser();
    const account = await createAccount(owner);
    const stranger = await createUser();
    await createAccount(stranger);
    for (const key of [account.accountId, account.accountNumber, account.userName]) {
      const response = await api('GET', `/v1/account/${key}`, { token: stranger.token });
      expect(response.status, key).toBe(404);
      expect(response.body).toEqual({ status: 'error', error: 'Account not available!', code: 'account_not_found' });
    }
    for (const key of ['00000000-0000-4000-8000-000000000000', '999999999', 'nobody-here', 'x%27%20OR%201%3D1']) {
      const response = await api('GET', `/v1/account/${key}`, { token: owner.token });
      expect(response.status, key).toBe(404);
      expect(response.body.error).toBe('Account not available!');
    }
    expect((await api('GET', `/v1/account/${account.accountId}`)).status).toBe(401);
  });
});

describe('GET /v1/account/{accountNumber}/summary', () => {
  it('counts the ledger transactions of the account; payments and withdrawals are 0 until those features exist', async () => {
    const user = await createUser();
    const account = await createAccount(user);
    const before = await api('GET', `/v1/account/${account.accountNumber}/summary`, { token: user.token });
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual({ totalPayments: 0, successPayments: 0, totalWithdraw: 0, totalTransactions: 0 });
    await fundAccount(account.accountId, 100);
    await fundAccount(account.accountId, 200);
    const after = await api('GET', `/v1/account/${account.accountNumber}/summary`, { token: user.token });
    expect(after.body.data.totalTransactions).toBe(2);
  });

  it('is owner only', async () => {
    const owner = await createUser();
    const account = await createAccount(owner);
    await fundAccount(account.accountId, 100);
    const stranger = await createUser();
    const response = await api('GET', `/v1/account/${account.accountNumber}/summary`, { token: stranger.token });
    expect(response.status).toBe(404);
    expect(response.body.error).toBe('Account not available!');
    expect(JSON.stringify(response.body)).not.toContain('totalTransactions');
  });
});

describe('GET /v1/activities', () => {
  it('groups by UTC day, newest first, with the spec fields', async () => {
    const user = await createUser();
    const account = await createAccount(user);
    const { db } = await testServer();
    await db
      .insertInto('activities')
      .values([
        { accountId: account.accountId, name: 'Old event', comment: null, createdAt: '2024-03-01T23:59:00Z' },
        { accountId: account.accountId, name: 'Older event', comment: 'first', createdAt: '2024-03-01T00:00:01Z' },
        { accountId: account.accountId, name: 'Middle event', comment: 'x', createdAt: '2024-06-15T12:00:00Z' },
      ])
      .execute();
    const response = await api('GET', `/v1/activities?accountId=${account.accountId}`, { token: user.token });
    expect(response.status).toBe(200);
    const groups = response.body.data as { _id: string; activities: { name: string }[] }[];
    expect(groups.map((g) => g._id)).toEqual([new Date().toISOString().slice(0, 10), '2024-06-15', '2024-03-01']);
    expect(groups[2]).toEqual({
      _id: '2024-03-01',
      activities: [
        { _id: expect.any(String), name: 'Old event', comment: null, date: '2024-03-01T23:59:00.000Z', account: account.accountId },
        { _id: expect.any(String), name: 'Older event', comment: 'first', date: '2024-03-01T00:00:01.000Z', account: account.accountId },
      ],
    });
  });

  it('records logins for every account of the user', async () => {
    const user = await createUser();
    const account = await createAccount(user);
    const login = await api('POST', '/v1/auth/login', { body: { email: user.email, password: user.password } });
    expect(login.status).toBe(200);
    const response = await api('GET', `/v1/activities?accountId=${account.accountId}`, { token: user.token });
    expect(response.body.data[0].activities[0].name).toBe('Login');
  });

  it('answers at most the latest 200', async () => {
    const user = await createUser();
    const account = await createAccount(user);
    const { db } = await testServer();
    await db
      .insertInto('activities')
      .values(Array.from({ length: 230 }, (_, i) => ({ accountId: account.accountId, name: `Event ${i}`, comment: null, createdAt: new Date(Date.UTC(2023, 0, 1, 0, i)) })))
      .execute();
    const response = await api('GET', `/v1/activities?accountId=${account.accountId}`, { token: user.token });
    const all = (response.body.data as { activities: { name: string }[] }[]).flatMap((g) => g.activities);
    expect(all).toHaveLength(200);
    expect(all[0]!.name).toBe('Account created');
  });

  it('is owner only and needs the accountId', async () => {
    const owner = await createUser();
    const account = await createAccount(owner);
    const stranger = await createUser();
    const response = await api('GET', `/v1/activities?accountId=${account.accountId}`, { token: stranger.token });
    expect(response.status).toBe(404);
    expect(JSON.stringify(response.body)).not.toContain('Account created');
    const missing = await api('GET', '/v1/activities', { token: owner.token });
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual({ accountId: 'accountId is required' });
  });
});


async function upload(token: string | undefined, fields: Record<string, string>, files: { name: string; bytes: Buffer; type?: string }[]) {
  const server = await testServer();
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const file of files) form.append('identityImage', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'image/png' }), file.name);
  const response = await fetch(`${server.baseUrl}/v1/account/upload-image`, {
    method: 'PATCH',
    headers: token ? { authorization: token } : {},
    body: form,
  });
  return { status: response.status, body: await response.json() };
}

async function identityFileCount(): Promise<number> {
  const { config } = await testServer();
  try {
    return readdirSync(path.join(config.dataDir, 'uploads', 'identity')).length;
  } catch {
    return 0;
  }
}

describe('identity images', () => {
  it('accepts real images, lists them on the account and serves them back to the owner only', async () => {
    const owner = await createUser();
    const account = await createAccount(owner);
    const png = tinyPng();
    const response = await upload(owner.token, { accountId: account.accountId, accountNumber: account.accountNumber }, [
      { name: 'front.png', bytes: png },
      { name: 'back.png', bytes: png },
    ]);
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(2);

    const details = await api('GET', `/v1/account/${account.accountId}`, { token: owner.token });
    const images = details.body.data.identityImages as { _id: string; url: string }[];
    expect(images).toHaveLength(2);
    expect(images[0]!.url).toBe(`/v1/account/${account.accountId}/identity-images/${images[0]!._id}`);

    const { baseUrl } = await testServer();
    const served = await fetch(`${baseUrl}${images[0]!.url}`, { headers: { authorization: owner.token } });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toBe('no-store');
    // A fresh encoding of the same pixels (uploads are re-encoded), not the sender's bytes.
    const servedBytes = Buffer.from(await served.arrayBuffer());
    const decode = (bytes: Buffer) => sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    const [servedPixels, sentPixels] = await Promise.all([decode(servedBytes), decode(png)]);
    expect(servedPixels.info).toMatchObject({ width: 2, height: 2 });
    expect(servedPixels.data.equals(sentPixels.data)).toBe(true);

    const stranger = await createUser();
    const refused = await fetch(`${baseUrl}${images[0]!.url}`, { headers: { authorization: stranger.token } });
    expect(refused.status).toBe(404);
    expect(refused.headers.get('content-type')).toContain('application/json');
    expect((await fetch(`${baseUrl}${images[0]!.url}`)).status).toBe(401);

    const operator = await createUser();
    const { db } = await testServer();
    await db.updateTable('users').set({ isOperator: true }).where('id', '=', operator.userId).execute();
    const forOperator = await fetch(`${baseUrl}${images[0]!.url}`, { headers: { authorization: operator.token } });
    expect(forOperator.status).toBe(200);

    const activities = await api('GET', `/v1/activities?accountId=${account.accountId}`, { token: owner.token });
    expect(activities.body.data[0].activities[0]).toMatchObject({ name: 'Identity documents uploaded', comment: '2 images added' });
  });

  it('finds the account by its number alone', async () => {
    const owner = await createUser();
    const account = await createAccount(owner);
    const response = await upload(owner.token, { accountNumber: account.accountNumber }, [{ name: 'id.png', bytes: tinyPng() }]);
    expect(response.status).toBe(200);
  });

  it('refuses a text file renamed .png, with a readable error, storing nothing', async () => {
    const owner = await createUser();
    const account = await createAccount(owner);
    const filesBefore = await identityFileCount();
    const response = await upload(owner.token, { accountId: account.accountId, accountNumber: account.accountNumber }, [
      { name: 'front.png', bytes: tinyPng() },
      { name: 'passport.png', bytes: Buffer.from('this is not an image, just text\n'.repeat(20)) },
    ]);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe(`${messages.account.identityImagesOnly}: 'passport.png' is not an image`);
    expect(response.body.fields).toEqual({ identityImage: messages.account.identityImagesOnly });
    const { db } = await testServer();
    const rows = await db.selectFrom('identityDocuments').select('id').where('accountId', '=', account.accountId).execute();
    expect(rows).toEqual([]);
    expect(await identityFileCount()).toBe(filesBefore);
  });

  it('refuses other image types it does not serve (e.g. SVG), a request with no files, and more than 10 files', async () => {
    const owner = await createUser();
    const account = await createAccount(owner);
    const svg = await upload(owner.token, { accountId: account.accountId }, [
      { name: 'x.png', bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), type: 'image/svg+xml' },
    ]);
    expect(svg.status).toBe(400);
    const none = await upload(owner.token, { accountId: account.accountId }, []);
    expect(none.status).toBe(400);
    expect(none.body.error).toBe(messages.account.identityImageRequired);
    const many = await upload(owner.token, { accountId: account.accountId }, Array.from({ length: 11 }, (_, i) => ({ name: `${i}.png`, bytes: tinyPng() })));
    expect(many.status).toBe(413);
    expect(many.body.error).toBe(messages.account.identityImageTooMany);
    const noAccount = await upload(owner.token, {}, [{ name: 'a.png', bytes: tinyPng() }]);
    expect(noAccount.status).toBe(400);
    expect(noAccount.body.error).toBe(messages.account.uploadAccountRequired);
  });

  it('refuses a file over 5 MB', async () => {
    const owner = await createUser();
    const account = await createAccount(owner);
    const big = Buffer.concat([tinyPng(), Buffer.alloc(5 * 1024 * 1024)]);
    const response = await upload(owner.token, { accountId: account.accountId }, [{ name: 'big.png', bytes: big }]);
    expect(response.status).toBe(413);
    expect(response.body.error).toBe(messages.account.identityImageTooLarge);
  });

  it("answers 404 for someone else's account and stores nothing", async () => {
    const owner = await createUser();
    const account = await createAccount(owner);
    const stranger = await createUser();
    const strangerAccount = await createAccount(stranger);
    const filesBefore = await identityFileCount();
    const attempts: Record<string, string>[] = [{ accountId: account.accountId }, { accountNumber: account.accountNumber }, { accountId: strangerAccount.accountId, accountNumber: account.accountNumber }];
    for (const fields of attempts) {
      const response = await upload(stranger.token, fields, [{ name: 'a.png', bytes: tinyPng() }]);
      expect(response.status).toBe(404);
      expect(response.body.error).toBe('Account not available!');
      expect(JSON.stringify(response.body)).not.toContain(account.accountEmail);
    }
    expect(await identityFileCount()).toBe(filesBefore);
  });
});

describe('OpenAPI', () => {
  it('documents the account routes', async () => {
    const response = await api('GET', '/v1/openapi.json');
    expect(response.status).toBe(200);
    const paths = Object.keys(response.body.paths);
    for (const route of ['/v1/account/create', '/v1/account/upload-image', '/v1/account/{key}', '/v1/account/{key}/summary', '/v1/activities']) {
      expect(paths).toContain(route);
    }
  });
});
