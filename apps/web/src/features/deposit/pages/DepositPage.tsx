import { CURRENCIES, messages, uiText } from '@kestrel/shared';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../../components/Button.tsx';
import { FloatingField } from '../../../components/FloatingField.tsx';
import { HistoryIcon } from '../../../components/icons.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { SelectField } from '../../../components/SelectField.tsx';

/**
 * /deposit: amount entry with currency USD. Deposits are not available yet, so Continue only
 * says 'Comming soon!' (the spec's behaviour) and nothing is sent to the server.
 */
export function DepositPage() {
  const title = uiText.nav.deposit;
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState<string>('USD');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    toast(messages.portal.depositComingSoon, { id: 'deposit-coming-soon', icon: <HistoryIcon className="size-5 shrink-0 text-brand-700" /> });
  };

  return (
    <>
      <PageTitle title={title} />
      <div className="max-w-xl">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
        <p className="mt-1 mb-6 text-slate-600">Add money to your wallet.</p>
        <form onSubmit={onSubmit} noValidate aria-label={title} className="space-y-5 rounded-2xl border border-slate-200 bg-white p-4 shadow-xs sm:p-6">
          <div className="grid gap-5 sm:grid-cols-[9rem_minmax(0,1fr)]">
            <SelectField label="Currency" value={currency} onChange={(event) => setCurrency(event.target.value)}>
              {CURRENCIES.map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </SelectField>
            <FloatingField
              label="Amount"
              inputMode="decimal"
              autoComplete="off"
              value={amount}
              onChange={(event) => setAmount(event.target.value.replace(/[^\d.]/g, ''))}
            />
          </div>
          <Button type="submit" size="lg" className="w-full sm:w-auto">
            Continue
          </Button>
        </form>
      </div>
    </>
  );
}
