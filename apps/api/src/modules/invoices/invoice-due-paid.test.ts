import { randomUUID } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { createUser, type TestUser } from '../../../test/factories.ts';

/* Issue 20, item 13: an optional due date, and a paid/unpaid status its owner sets, on the invoice and its PDF. */

function body(user: TestUser, overrides: Record<string, unknown> = {}) {
  return { name: 'Rahim Traders', phone: '01712345678', email: 'rahim@example.test', reciver: 'Karim', unit_price: '10.00', quantity: 2, details: 'Tyres', userId: user.userId, ...overrides };
}

const create = (user: TestUser, payload: unknown) => api('POST', '/data/v1/invoice/create', { token: user.token, body: payload });
const mark = (user: TestUser | undefined, id: string, payload: unknown) => api('PATCH', `/data/v1/invoice/status/${id}`, { token: user?.token, body: payload });

/** The text pdfkit drew, page by page: every content stream inflated, its strings decoded (WinAnsi, which is Latin-1 for these characters). */
function pdfText(bytes: Buffer): string {
  const source = bytes.toString('latin1');
  const texts: string[] = [];
  // Each stream's bytes are exactly its dictionary's /Length: compressed data may itself end in
  // a byte that looks like a line end, so the text up to "endstream" is not the stream.
  for (const match of source.matchAll(/\/Length (\d+)[^>]*>>\s*stream\r?\n/g)) {
    const start = match.index + match[0].length;
    let content: string;
    try {
      content = inflateSync(Buffer.from(source.slice(start, start + Number(match[1])), 'latin1')).toString('latin1');
    } catch {
      continue;
    }
    // One text-showing operation per line: [<hex> kerning <hex>] TJ.
    for (const op of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      texts.push([...op[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((hex) => Buffer.from(hex[1]!, 'hex').toString('latin1')).join(''));
    }
  }
  return texts.join('\n');
}

async function pdfOf(user: TestUser, id: string): Promise<string> {
  const { baseUrl } = await testServer();
  const response = await fetch(`${baseUrl}/data/v1/invoice/${id}/pdf`, { headers: { authorization: user.token } });
  expect(response.status).toBe(200);
  return pdfText(Buffer.from(await response.arrayBuffer()));
}

describe('invoice due date and paid status', () => {
  it('keeps an optional due date exactly as the day given, and starts unpaid', async () => {
    const user = await createUser();
    const withDue = await create(user, body(user, { dueDate: '2026-12-31' }));
    expect(withDue.status).toBe(201);
    expect(withDue.body.data).toMatchObject({ dueDate: '2026-12-31', status: 'unpaid', paidAt: null, totalPrice: 20 });
    const without = await create(user, body(user));
    expect(without.body.data).toMatchObject({ dueDate: null, status: 'unpaid' });
    const explicitNull = await create(user, body(user, { dueDate: null }));
    expect(explicitNull.body.data.dueDate).toBeNull();

    const list = await api('GET', `/data/v1/invoice/user/${user.userId}`, { token: user.token });
    expect(list.body.data.map((invoice: { dueDate: string | null }) => invoice.dueDate)).toEqual([null, null, '2026-12-31']);
    const detail = await api('GET', `/data/v1/invoice/${withDue.body.data._id}`, { token: user.token });
    expect(detail.body.data).toMatchObject({ dueDate: '2026-12-31', status: 'unpaid' });
  });

  it('refuses a due date that is no calendar day with the form message, and stores nothing', async () => {
    const user = await createUser();
    for (const dueDate of ['2026-02-30', '31/12/2026', 'soon', '', '1999-12-31', 20261231]) {
      const response = await create(user, body(user, { dueDate }));
      expect(response.status, String(dueDate)).toBe(400);
      expect(response.body.error, String(dueDate)).toBe('Enter a valid due date');
    }
    const { db } = await testServer();
    expect(await db.selectFrom('invoices').select('id').where('userId', '=', user.userId).execute()).toEqual([]);
  });

  it('lets the owner mark an invoice paid and unpaid again, with the time it was paid; nobody else', async () => {
    const owner = await createUser();
    const other = await createUser();
    const { _id: id } = (await create(owner, body(owner, { dueDate: '2027-01-15' }))).body.data;

    const paid = await mark(owner, id, { status: 'paid' });
    expect(paid.status).toBe(200);
    expect(paid.body.message).toBe('Invoice marked as paid');
    expect(paid.body.data).toMatchObject({ _id: id, status: 'paid', dueDate: '2027-01-15' });
    const paidAt = paid.body.data.paidAt as string;
    expect(Math.abs(Date.parse(paidAt) - Date.now())).toBeLessThan(60_000);
    // Marking it paid again keeps the first time.
    expect((await mark(owner, id, { status: 'paid' })).body.data.paidAt).toBe(paidAt);
    expect((await api('GET', `/data/v1/invoice/${id}`, { token: owner.token })).body.data).toMatchObject({ status: 'paid', paidAt });

    expect((await mark(other, id, { status: 'unpaid' })).status).toBe(404);
    expect((await mark(undefined, id, { status: 'unpaid' })).status).toBe(401);
    expect((await mark(owner, randomUUID(), { status: 'paid' })).status).toBe(404);
    expect((await mark(owner, 'not-an-id', { status: 'paid' })).status).toBe(404);
    expect((await mark(owner, id, { status: 'settled' })).status).toBe(400);
    expect((await mark(owner, id, { status: 'paid', paidAt: '2020-01-01' })).status).toBe(400);
    expect((await api('GET', `/data/v1/invoice/${id}`, { token: owner.token })).body.data.status).toBe('paid');

    const unpaid = await mark(owner, id, { status: 'unpaid' });
    expect(unpaid.status).toBe(200);
    expect(unpaid.body.message).toBe('Invoice marked as unpaid');
    expect(unpaid.body.data).toMatchObject({ status: 'unpaid', paidAt: null });

    const { db } = await testServer();
    const audit = await db.selectFrom('auditLog').select('action').where('subjectType', '=', 'invoice').where('subjectId', '=', id).orderBy('id').execute();
    expect(audit.map((row) => row.action)).toEqual(['invoice.paid', 'invoice.paid', 'invoice.unpaid']);
  });

  it('prints the due date and UNPAID, then PAID with its day, on the PDF', async () => {
    const user = await createUser();
    const { _id: id } = (await create(user, body(user, { dueDate: '2026-12-31' }))).body.data;
    const unpaid = await pdfOf(user, id);
    expect(unpaid).toContain('Due date: 2026-12-31');
    expect(unpaid).toContain('UNPAID');
    expect(unpaid).toMatch(/Total due: \D*20\.00/);

    const paid = await mark(user, id, { status: 'paid' });
    const paidText = await pdfOf(user, id);
    expect(paidText).toContain(`PAID on ${(paid.body.data.paidAt as string).slice(0, 10)}`);
    expect(paidText).not.toContain('UNPAID');
    expect(paidText).toMatch(/Total paid: \D*20\.00/);

    const { _id: noDue } = (await create(user, body(user))).body.data;
    expect(await pdfOf(user, noDue)).not.toContain('Due date');
  });
});
