import { createInvoiceBody, invoiceDetailView, invoiceIdParams, invoiceMessages, invoiceUserParams, invoiceView, updateInvoiceStatusBody } from '@kestrel/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { onReadDb } from '../../db/read-routing.ts';
import { callerId, requireUser } from '../../http/guards.ts';
import { ok, successEnvelope } from '../../http/envelope.ts';
import { clientIp } from '../../http/client-ip.ts';
import { createInvoice, getInvoiceDetail, invoicePdf, listInvoices, updateInvoiceStatus } from './invoices.service.ts';
import { refusals } from '../../http/refusals.ts';

/**
 * Invoices on the data host (/data/v1). Unlike the spec, these calls need the token and act
 * for the caller only (see invoices.service.ts).
 */
export const invoicesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/invoice/create',
    {
      onRequest: requireUser,
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['invoices'],
        summary: 'Create an invoice; numbers run 1, 2, 3… per user',
        body: createInvoiceBody,
        response: { 201: successEnvelope(invoiceView), ...refusals('invalid_request', 'user_not_found') },
      },
    },
    async (request, reply) => reply.status(201).send(ok(await createInvoice(app.ctx, callerId(request), request.body), invoiceMessages.created)),
  );

  app.get(
    '/invoice/user/:userId',
    {
      onRequest: requireUser,
      schema: {
        tags: ['invoices'],
        summary: 'Your invoices, newest first (userId must be your own; any other is 404)',
        params: invoiceUserParams,
        response: { 200: successEnvelope(z.array(invoiceView)), ...refusals('user_not_found') },
      },
    },
    async (request) => ok(await onReadDb(app.ctx, (ctx) => listInvoices(ctx, callerId(request), request.params.userId))),
  );

  app.get(
    '/invoice/:id',
    {
      onRequest: requireUser,
      schema: {
        tags: ['invoices'],
        summary: 'One of your invoices, with who issued it (the printable view)',
        params: invoiceIdParams,
        response: { 200: successEnvelope(invoiceDetailView), ...refusals('invoice_not_found') },
      },
    },
    async (request) => ok((await getInvoiceDetail(app.ctx, callerId(request), request.params.id)).view),
  );

  app.patch(
    '/invoice/status/:id',
    {
      onRequest: requireUser,
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['invoices'],
        summary: 'Mark one of your invoices paid or unpaid (invoices have no payment path: the owner says when the customer paid)',
        params: invoiceIdParams,
        body: updateInvoiceStatusBody,
        response: { 200: successEnvelope(invoiceView), ...refusals('invoice_not_found') },
      },
    },
    async (request) => {
      const invoice = await updateInvoiceStatus(app.ctx, callerId(request), request.params.id, request.body.status, clientIp(request));
      return ok(invoice, invoice.status === 'paid' ? invoiceMessages.markedPaid : invoiceMessages.markedUnpaid);
    },
  );

  app.get(
    '/invoice/:id/pdf',
    {
      onRequest: requireUser,
      schema: {
        tags: ['invoices'],
        summary: 'One of your invoices as a PDF download',
        params: invoiceIdParams,
        response: { 200: z.unknown().describe('The PDF bytes (application/pdf)'), ...refusals('invoice_not_found') },
      },
    },
    async (request, reply) => {
      const { bytes, fileName } = await invoicePdf(app.ctx, callerId(request), request.params.id);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(bytes);
    },
  );
};
