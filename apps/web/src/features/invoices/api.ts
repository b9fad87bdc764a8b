import { invoiceDetailView, invoiceView, type CreateInvoiceInput, type InvoiceDetailView, type InvoiceStatus, type InvoiceView } from '@kestrel/shared';
import { z } from 'zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, segment } from '../../lib/http.ts';

/* Invoices on the data host (/data/v1). Types come from the shared contract. */

export type Invoice = InvoiceView;
export type InvoiceDetail = InvoiceDetailView;

export const invoiceKeys = {
  all: ['invoices'] as const,
  user: (userId: string) => [...invoiceKeys.all, 'user', userId] as const,
  detail: (id: string) => [...invoiceKeys.all, 'detail', id] as const,
};

/** GET /data/v1/invoice/user/{userId}: the signed-in user's invoices, newest first. */
export function useInvoices(userId: string | undefined) {
  return useQuery({
    queryKey: invoiceKeys.user(userId ?? ''),
    queryFn: async ({ signal }) => (await http.get(`/data/v1/invoice/user/${segment(userId ?? '')}`, z.array(invoiceView), { signal })).data,
    enabled: Boolean(userId),
  });
}

/** GET /data/v1/invoice/{id}: one invoice with who issued it. */
export function useInvoice(id: string) {
  return useQuery({
    queryKey: invoiceKeys.detail(id),
    queryFn: async ({ signal }) => (await http.get(`/data/v1/invoice/${segment(id)}`, invoiceDetailView, { signal })).data,
    enabled: id !== '',
  });
}

/** POST /data/v1/invoice/create. Creating an invoice moves no money, so a retry needs no idempotency key. */
export function useCreateInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateInvoiceInput) => (await http.post('/data/v1/invoice/create', body, invoiceView)).data,
    onSuccess: (invoice) => void queryClient.invalidateQueries({ queryKey: invoiceKeys.user(invoice.userId) }),
  });
}

/** PATCH /data/v1/invoice/status/{id}: the owner marks the invoice paid or unpaid; the shown status changes only when the server agrees. */
export function useUpdateInvoiceStatus(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (status: InvoiceStatus) => (await http.patch(`/data/v1/invoice/status/${segment(id)}`, { status }, invoiceView)).data,
    onSuccess: (invoice) => {
      const detail = queryClient.getQueryData<InvoiceDetailView>(invoiceKeys.detail(id));
      if (detail) queryClient.setQueryData(invoiceKeys.detail(id), { ...detail, ...invoice });
      void queryClient.invalidateQueries({ queryKey: invoiceKeys.all });
    },
  });
}

/** GET /data/v1/invoice/{id}/pdf, saved through a temporary link (the request needs the token, so a plain link cannot). */
export async function downloadInvoicePdf(id: string, fileName: string): Promise<void> {
  const blob = await http.blob(`/data/v1/invoice/${segment(id)}/pdf`);
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the blob to the download; free it on the next tick.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
