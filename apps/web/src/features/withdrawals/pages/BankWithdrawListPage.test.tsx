import { withdrawalView, type WithdrawalView } from '@kestrel/shared';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { accountFixture } from '../../../test/fixtures.ts';
import { renderPage, signedIn, signIn, stubApi, success } from '../../../test/render.tsx';
import { BankWithdrawListPage } from './BankWithdrawListPage.tsx';

const me = signedIn.account.accountNumber;
const listPath = `GET /v1/bank-withdraw/account/${me}`;
const countersPath = `GET /v1/bank-withdraw/account/${me}/summary`;

function withdrawalFixture(overrides: Partial<WithdrawalView> = {}): WithdrawalView {
  return withdrawalView.parse({
    _id: 'w1', accountNumber: me, amount: 1250.5, currency: 'USD', status: 'Completed', bankName: 'First Bank', country: 'United States', branchName: null,
    accountType: 'CHECKING', bankAccountNumber: '****6789', routingNumber: '021000021', accountHolderName: 'Ada Lovelace', failureReason: null,
    createdAt: '2026-11-25T12:00:00.000Z', updatedAt: '2026-11-25T12:00:00.000Z',
    ...overrides,
  });
}

const counter = (label: string) => screen.getByRole('article', { name: label }).querySelector('p')?.textContent;

describe('the bank withdraw list', () => {
  beforeEach(signIn);

  it('shows the counters and each withdrawal: amount as US$, its status, bank and branch, masked account, routing number', async () => {
    stubApi({
      [countersPath]: success({ completed: 1, pending: 1, total: 3, failed: 1 }),
      [listPath]: success([
        withdrawalFixture(),
        withdrawalFixture({ _id: 'w2', amount: 40, status: 'Processing', bankName: 'Sonali Bank', branchName: 'Motijheel', country: 'Bangladesh', accountType: null }),
        withdrawalFixture({ _id: 'w3', amount: 0.5, status: 'Failed', failureReason: 'Account closed' }),
      ]),
    });
    renderPage(<BankWithdrawListPage />, { path: '/withdraw/bank' });
    const table = await screen.findByRole('table', { name: 'Bank withdrawals, newest first' });
    expect(within(table).getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['Amount', 'Bank', 'Account No.', 'Routing Number', 'Date']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(rows.map((cells) => cells.slice(0, 4))).toEqual([
      ['US$ 1,250.50Completed', 'First BankUnited States', '****6789', '021000021'],
      ['US$ 40.00Processing', 'Sonali Bank, MotijheelBangladesh', '****6789', '021000021'],
      ['US$ 0.50FailedReason: Account closed', 'First BankUnited States', '****6789', '021000021'],
    ]);
    expect(within(table).getByRole('link', { name: 'US$ 40.00, Processing: details' }).getAttribute('href')).toBe('/withdraw/bank/w2');
    expect([counter('Completed'), counter('Pending'), counter('Total Withdraw'), counter('Failed')]).toEqual(['1', '1', '3', '1']);
  });

  it('with no withdrawals yet, offers the new withdraw form in place of the list', async () => {
    stubApi({
      [countersPath]: success({ completed: 0, pending: 0, total: 0, failed: 0 }),
      [listPath]: success([]),
      [`GET /v1/account/${me}`]: success(accountFixture()),
    });
    renderPage(<BankWithdrawListPage />, { path: '/withdraw/bank' });
    expect(await screen.findByText('You have no withdrawals yet. Request your first one here.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Request withdraw' })).toBeTruthy();
    expect(await screen.findByText('Available balance: US$ 250.50')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
