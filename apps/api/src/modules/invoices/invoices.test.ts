import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { createUser, type TestUser } from '../../../test/factories.ts';

function body(user: TestUser, overrides: Record<string, unknown> = {}) {
  return {
    name: 'Rahim Traders',
    phone: '01712345678',
    email: 'rahim@example.test',
    reciver: 'Karim',
    unit_price: 19.99,
    quantity: 3,
    details: 'Bicycle tyres',
    userId: user.userId,
    ...overrides,
  };
}

const create = (user: TestUser, payload: unknown) => api('POST', '/data/v1/invoice/create', { token: user.token, body: payload });

async function invoiceCount(userId: string): Promise<number> {
  const { db } = await testServer();
  return (await db.selectFrom('invoices').select('id').where('userId', '=', userId).execute()).length;
}

describe('invoices on the data host', () => {
  it('creates an invoice with an exact total and lists it for its owner', async () => {
    const user = await createUser();
    const created = await create(user, body(user));
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Invoice created successfully!');
    expect(created.body.data).toMatchObject({
      invoiceNumber: 1,
      name: 'Rahim Traders',
      reciver: 'Karim',
      unit_price: 19.99,
      quantity: 3,
      totalPrice: 59.97,
      currency: 'USD',
      userId: user.userId,
    });
    const { db } = await testServer();
    const row = await db.selectFrom('invoices').select(['unitPriceCents', 'totalCents']).where('id', '=', created.body.data._id).executeTakeFirstOrThrow();
    expect(row).toEqual({ unitPriceCents: 1_999, totalCents: 5_997 });

    const second = await create(user, body(user, { unit_price: '0.1e1', quantity: '2' }));
    expect(second.status).toBe(400);
    const third = await create(user, body(user, { unit_price: '1.10', quantity: '7' }));
    expect(third.status).toBe(201);
    expect(third.body.data).toMatchObject({ invoiceNumber: 2, totalPrice: 7.7 });

    const list = await api('GET', `/data/v1/invoice/user/${user.userId}`, { token: user.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((i: { invoiceNumber: number }) => i.invoiceNumber)).toEqual([2, 1]);
  });

  it('numbers invoices 1, 2, 3… per user, also when created at once', async () => {
    const user = await createUser();
    const other = await createUser();
    const answers = await Promise.all(Array.from({ length: 8 }, () => create(user, body(user))));
    for (const answer of answers) expect(answer.status).toBe(201);
    expect(answers.map((a) => a.body.data.invoiceNumber).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect((await create(other, body(other))).body.data.invoiceNumber).toBe(1);
  });

  it('refuses every bad input with the form message and stores nothing', async () => {
    const user = await createUser();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'Name is required'],
      [{ name: undefined }, 'Name is required'],
      [{ phone: '0171234567' }, 'Invalid Bangladeshi phone number'],
      [{ phone: '01212345678' }, 'Invalid Bangladeshi phone number'],
      [{ phone: '+8801712345678' }, 'Invalid Bangladeshi phone number'],
      [{ email: 'nope' }, 'Invalid email address'],
      [{ reciver: ' ' }, 'Receiver name is required'],
      [{ unit_price: 0.99 }, 'Must be greater than 0'],
      [{ unit_price: 0 }, 'Must be greater than 0'],
      [{ unit_price: -5 }, 'Must be greater than 0'],
      [{ unit_price: '' }, 'Must be greater than 0'],
      [{ unit_price: '1.005' }, 'Use at most two decimals'],
      [{ quantity: 0 }, 'Must be at least 1'],
      [{ quantity: 1.5 }, 'Quantity must be a whole number'],
      [{ quantity: '' }, 'Must be at least 1'],
      [{ quantity: 1_000_001 }, 'Quantity is too large'],
      [{ unit_price: 999_999, quantity: 1_000_000 }, 'The total price is too large'],
      // A total past 2^53 cents (10^17 here) was let through once, its product no longer a safe integer.
      [{ unit_price: 1_000_000_000, quantity: 1_000_000 }, 'The total price is too large'],
      [{ unit_price: '99999999.99', quantity: 1_000_000 }, 'The total price is too large'],
      [{ details: '' }, 'Details are required'],
    ];
    for (const [overrides, message] of cases) {
      const response = await create(user, body(user, overrides));
      expect(response.status, JSON.stringify(overrides)).toBe(400);
      expect(response.body.error, JSON.stringify(overrides)).toBe(message);
    }
    expect((await create(user, body(user, { extra: 1 }))).status).toBe(400);
    expect(await invoiceCount(user.userId)).toBe(0);
  });

  it("never shows or writes another user's invoices: 404 for their id, 401 without a token", async () => {
    const owner = await createUser();
    const other = await createUser();
    const { _id: id } = (await create(owner, body(owner))).body.data;

    const theirs = await api('GET', `/data/v1/invoice/user/${owner.userId}`, { token: other.token });
    expect(theirs.status).toBe(404);
    expect(JSON.stringify(theirs.body)).not.toContain('Rahim');
    expect((await create(other, body(other, { userId: owner.userId }))).status).toBe(404);
    expect((await api('GET', `/data/v1/invoice/${id}`, { token: other.token })).status).toBe(404);
    expect((await api('GET', `/data/v1/invoice/${id}/pdf`, { token: other.token })).status).toBe(404);
    expect((await api('GET', `/data/v1/invoice/${randomUUID()}`, { token: owner.token })).status).toBe(404);
    expect((await api('GET', '/data/v1/invoice/not-an-id', { token: owner.token })).status).toBe(404);
    expect((await api('GET', `/data/v1/invoice/user/${owner.userId}`)).status).toBe(401);
    expect((await api('POST', '/data/v1/invoice/create', { body: body(owner) })).status).toBe(401);
    expect(await invoiceCount(owner.userId)).toBe(1);
    expect(await invoiceCount(other.userId)).toBe(0);
    const empty = await api('GET', `/data/v1/invoice/user/${other.userId}`, { token: other.token });
    expect(empty.body.data).toEqual([]);
  });

  it('serves the printable view and a PDF download to the owner', async () => {
    const user = await createUser({ overrides: { firstName: 'Ayesha', lastName: 'Khan' } });
    const { _id: id } = (await create(user, body(user, { unit_price: '12.50', quantity: 4 }))).body.data;
    const detail = await api('GET', `/data/v1/invoice/${id}`, { token: user.token });
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ invoiceNumber: 1, totalPrice: 50, issuedBy: { name: 'Ayesha Khan', email: user.email } });

    const { baseUrl } = await testServer();
    const pdf = await fetch(`${baseUrl}/data/v1/invoice/${id}/pdf`, { headers: { authorization: user.token } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe('attachment; filename="INV-000001.pdf"');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(1000);
  });
});
