import { transactionGroup, type Transaction } from '@kestrel/shared';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, signedIn, signIn, stubApi, success } from '../../../test/render.tsx';
import { TransactionsPage } from './TransactionsPage.tsx';

const me = signedIn.account.accountNumber;
const listPath = `GET /v1/transaction/account/${me}`;

function transactionFixture(overrides: Partial<Transaction> = {}): Transaction {
  return transactionGroup.shape.transactions.element.parse({
    _id: '101',
    transactionId: 'TX-101',
    transactionFor: 'Fund transfer',
    amount: 1234.5,
    currency: 'USD',
    fee: { amount: 0, currency: 'USD' },
    transactionAt: '2026-11-26T10:00:00.000Z',
    accounts: [
      { accountNumber: me, transactionType: 'debit' },
      { accountNumber: 'B200', transactionType: 'credit' },
    ],
    ...overrides,
  });
}

/** The table's body rows as their cells' text, the proof button's words left out. */
function tableRows(): string[][] {
  const table = screen.getByRole('table', { name: `Transactions of account ${me}, newest first` });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell').map((cell) => (cell.textContent ?? '').replace(/Download proof of transaction \S+$/, '')));
}

describe('All Transactions', () => {
  beforeEach(signIn);

  it('lists each transaction with its purpose and counterpart, amount and fee as US$, debit or credit for this account, ID and time', async () => {
    stubApi({
      [listPath]: success([
        {
          _id: '2026-11-26',
          transactions: [
            transactionFixture(),
            transactionFixture({
              _id: '100', transactionId: 'TX-100', transactionFor: 'Payment', amount: 0.05, fee: { amount: 0.6, currency: 'USD' },
              accounts: [{ accountNumber: me, transactionType: 'credit' }],
            }),
          ],
        },
        { _id: '2026-11-25', transactions: [transactionFixture({ _id: '99', transactionId: 'TX-99', amount: 1_000_000, accounts: [{ accountNumber: 'B200', transactionType: 'debit' }, { accountNumber: me, transactionType: 'credit' }] })] },
      ]),
    });
    renderPage(<TransactionsPage />, { path: '/transactions' });
    expect(await screen.findByRole('table')).toBeTruthy();
    expect(within(screen.getByRole('table')).getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['Purpose', 'Amount', 'Fee', 'Type', 'TnxId', 'Tnx At']);
    const rows = tableRows();
    expect(rows.map((row) => row.slice(0, 5))).toEqual([
      ['Fund transferTo B200', 'US$ 1,234.50', 'US$ 0.00', 'debit', 'TX-101'],
      ['Payment', 'US$ 0.05', 'US$ 0.60', 'credit', 'TX-100'],
      ['Fund transferFrom B200', 'US$ 1,000,000.00', 'US$ 0.00', 'credit', 'TX-99'],
    ]);
    expect(rows[0]?.[5]).toMatch(/^November 26th, 2026 \d{1,2}:\d{2} [AP]M$/);
    expect(screen.getByText(`· 3 transactions`, { exact: false })).toBeTruthy();
  });

  it('says "This Account has No Transactions" when there are none', async () => {
    stubApi({ [listPath]: success([]) });
    renderPage(<TransactionsPage />, { path: '/transactions' });
    expect(await screen.findByText('This Account has No Transactions')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('loads older transactions after a full page, from the last one shown', async () => {
    const full = Array.from({ length: 50 }, (_, index) => transactionFixture({ _id: String(200 - index), transactionId: `TX-${200 - index}` }));
    const calls = stubApi({
      [listPath]: (call) => success(call.path.includes('cursor=') ? [{ _id: '2026-11-20', transactions: [transactionFixture({ _id: '150', transactionId: 'TX-150', amount: 7 })] }] : [{ _id: '2026-11-26', transactions: full }]),
    });
    const { user } = renderPage(<TransactionsPage />, { path: '/transactions' });
    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('· 51 transactions', { exact: false })).toBeTruthy();
    expect(tableRows().at(-1)?.slice(1, 2)).toEqual(['US$ 7.00']);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(calls.filter((call) => call.path.startsWith(`/v1/transaction/account/${me}`)).map((call) => call.path)).toEqual([
      `/v1/transaction/account/${me}?limit=50`,
      `/v1/transaction/account/${me}?limit=50&cursor=151`,
    ]);
  });
});
