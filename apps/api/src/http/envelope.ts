/** The envelope schemas are part of the shared contracts; `ok` builds the success body. */
export { errorEnvelope, successEnvelope } from '@kestrel/shared';

/** Success envelope: `{ status: 'success', message?, data }` (DESIGN.md). */
export function ok<T>(data: T, message?: string): { status: 'success'; message?: string; data: T } {
  return message === undefined ? { status: 'success', data } : { status: 'success', message, data };
}
