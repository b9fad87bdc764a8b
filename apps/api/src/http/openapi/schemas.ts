import * as shared from '@kestrel/shared';
import { z } from 'zod';

/*
 * Named component schemas for the reference, made from the shared zod contracts: every
 * object, enum or union the contracts export becomes `#/components/schemas/<Name>` (the
 * export's name in PascalCase; request forms get an `Input` suffix from the zod type
 * provider). Routes keep using the contracts as they are; the document refers to these
 * names wherever a route's schema is one of them. Components no operation refers to are
 * dropped when the document is built (document.ts), so exporting a contract costs nothing.
 */

const NAMED_KINDS = new Set(['object', 'enum', 'union']);

/** Names that read better than the export's own (the error envelope is "Error" to clients). */
const RENAMED: Record<string, string> = {
  errorEnvelope: 'Error',
  paymentView: 'Payment',
  webPayBody: 'WebPayRequest',
  directPayBody: 'DirectPayRequest',
  completeCardBody: 'CheckoutCardPayment',
  webPayAnswer: 'WebPayAnswer',
  completeAnswer: 'PaymentCompletedAnswer',
  storeCallbackEvent: 'StoreCallbackEvent',
  storeRefundCallbackEvent: 'StoreRefundCallbackEvent',
  refundView: 'Refund',
};

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** The shared contracts' registry (their fields' examples), with every named contract given its id. */
function buildRegistry(): typeof shared.contractRegistry {
  const registry = shared.contractRegistry;
  const seen = new Set<unknown>();
  for (const [exportName, value] of Object.entries(shared)) {
    if (!(value instanceof z.ZodType) || seen.has(value) || registry.get(value)?.id) continue;
    if (!NAMED_KINDS.has(value.def.type)) continue;
    // Path, query and header schemas become parameters, which cannot be references.
    if (/(Params|Query|Querystring|Headers)$/.test(exportName)) continue;
    seen.add(value);
    registry.add(value, { ...registry.get(value), id: RENAMED[exportName] ?? pascal(exportName) });
  }
  return registry;
}

export const contractSchemas = buildRegistry();
