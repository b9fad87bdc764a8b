import { useZodForm } from '../../../lib/zod-form.ts';
import { formatMoney, invoiceForm, invoiceMessages, invoiceTotalCents, parseAmount, type InvoiceFormInput, type InvoiceFormValues } from '@kestrel/shared';
import { useWatch } from 'react-hook-form';
import toast from 'react-hot-toast';
import { Button } from '../../../components/Button.tsx';
import { FloatingField } from '../../../components/FloatingField.tsx';
import { ApiError } from '../../../lib/http.ts';
import { useSession } from '../../../lib/session.ts';
import { useCreateInvoice } from '../api.ts';

const fieldNames = ['name', 'phone', 'email', 'reciver', 'unit_price', 'quantity', 'details', 'dueDate'] as const;
const isFormField = (field: string): field is keyof InvoiceFormInput => (fieldNames as readonly string[]).includes(field);

const empty: InvoiceFormInput = { name: '', phone: '', email: '', reciver: '', unit_price: '', quantity: '', details: '', dueDate: '' };

/** The '/invoice' create form. */
export function InvoiceForm() {
  const { userId } = useSession();
  const create = useCreateInvoice();
  const { register, handleSubmit, control, reset, setError, errors } = useZodForm(invoiceForm, empty);
  const [unitPrice, quantity] = useWatch({ control, name: ['unit_price', 'quantity'] });
  const total = /^\d+$/.test(quantity.trim()) && parseAmount(unitPrice).ok ? invoiceTotalCents(unitPrice, Number(quantity)) : undefined;

  const onSubmit = (values: InvoiceFormValues) => {
    if (create.isPending) return;
    create.mutate(
      // No due date chosen: the field is left out (the API's dueDate is optional).
      { ...values, dueDate: values.dueDate === '' ? undefined : values.dueDate, userId },
      {
        onSuccess: () => {
          toast.success(invoiceMessages.created);
          reset(empty);
        },
        onError: (error) => {
          toast.error(invoiceMessages.failed);
          if (!(error instanceof ApiError)) return;
          for (const [field, message] of Object.entries(error.fields ?? {})) {
            if (isFormField(field)) setError(field, { message });
          }
        },
      },
    );
  };

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate aria-label="Create invoice" className="space-y-5 rounded-2xl border border-slate-200 bg-white p-4 shadow-xs sm:p-6">
      {/* Who is who (issue 20): the customer billed, then the person who receives the goods; the API keeps the spec's field names. */}
      <fieldset className="min-w-0">
        <legend className="text-sm font-semibold text-slate-900">Bill to: the customer who pays</legend>
        <div className="mt-3 grid gap-5 sm:grid-cols-2 xl:grid-cols-3">
          <FloatingField label="Customer name" autoComplete="off" error={errors.name?.message} {...register('name')} />
          <FloatingField label="Customer phone" type="tel" inputMode="numeric" autoComplete="off" error={errors.phone?.message} {...register('phone')} />
          <FloatingField label="Customer email" type="email" autoComplete="off" error={errors.email?.message} {...register('email')} />
        </div>
      </fieldset>
      <fieldset className="min-w-0">
        <legend className="text-sm font-semibold text-slate-900">Receiver: who receives the goods or service</legend>
        <div className="mt-3 grid gap-5 sm:grid-cols-2 xl:grid-cols-3">
          <FloatingField label="Receiver name" autoComplete="off" error={errors.reciver?.message} {...register('reciver')} />
        </div>
      </fieldset>
      <fieldset className="min-w-0">
        <legend className="text-sm font-semibold text-slate-900">What is billed</legend>
        <div className="mt-3 grid gap-5 sm:grid-cols-2 xl:grid-cols-3">
          <FloatingField label="Unit Price" inputMode="decimal" autoComplete="off" error={errors.unit_price?.message} {...register('unit_price')} />
          <FloatingField label="Quantity" inputMode="numeric" autoComplete="off" error={errors.quantity?.message} {...register('quantity')} />
          <FloatingField label="Details" autoComplete="off" className="sm:col-span-2 xl:col-span-3" error={errors.details?.message} {...register('details')} />
          <FloatingField label="Due date (optional)" type="date" min="2000-01-01" max="2100-12-31" error={errors.dueDate?.message} {...register('dueDate')} />
        </div>
      </fieldset>
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" size="lg" className="w-full sm:w-auto" loading={create.isPending}>
          Create Invoice
        </Button>
        <p aria-live="polite" className="text-sm font-medium text-slate-700">
          {total !== undefined && `Total Price: ${formatMoney(total, 'USD')}`}
        </p>
      </div>
    </form>
  );
}
