import { screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, signIn, stubApi } from '../../../test/render.tsx';
import { DepositPage } from './DepositPage.tsx';

describe('the deposit page', () => {
  beforeEach(() => {
    signIn();
    toast.remove();
  });

  it('takes an amount in USD, keeps only digits and points, and says "Comming soon!" without calling the server', async () => {
    const calls = stubApi({});
    const { user } = renderPage(<DepositPage />, { path: '/deposit' });
    expect(screen.getByRole('heading', { name: 'Deposit' })).toBeTruthy();
    const currency = screen.getByLabelText('Currency') as HTMLSelectElement;
    expect([...currency.options].map((option) => option.value)).toEqual(['USD']);
    const amount = screen.getByLabelText('Amount') as HTMLInputElement;
    await user.type(amount, 'US$ 1a5.50');
    expect(amount.value).toBe('15.50');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Comming soon!')).toBeTruthy();
    // A second press does not stack a second toast.
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getAllByText('Comming soon!')).toHaveLength(1);
    expect(calls).toEqual([]);
  });
});
