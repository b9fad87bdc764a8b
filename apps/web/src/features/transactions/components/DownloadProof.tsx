import { ledgerProof } from '@kestrel/shared';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Spinner } from '../../../components/Spinner.tsx';
import { saveBlob } from '../../../lib/download.ts';
import { errorMessage, http, segment } from '../../../lib/http.ts';

export const proofMessages = {
  saved: (filename: string) => `Proof saved as ${filename}`,
  failed: 'The proof could not be downloaded.',
};

/**
 * "Download proof" of one transaction (issue 26): saves the JSON of GET /v1/ledger/proof/{id}
 * (its sealed record, inclusion path and seal), fetched with the session's token, for
 * `npm run ledger:prove`. In its first minute a transaction is not sealed yet: the server's
 * 409 message says so, and shows as the error toast.
 */
export function DownloadProof({ transactionId }: { transactionId: string }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const { data } = await http.get(`/v1/ledger/proof/${segment(transactionId)}`, ledgerProof);
      const filename = `proof-${transactionId}.json`;
      saveBlob(new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' }), filename);
      toast.success(proofMessages.saved(filename));
    } catch (error) {
      toast.error(errorMessage(error, proofMessages.failed));
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      onClick={() => void download()}
      disabled={busy}
      aria-busy={busy || undefined}
      className="mt-1 inline-flex items-center gap-1 rounded font-sans text-xs font-semibold text-brand-700 underline-offset-2 hover:underline disabled:text-slate-400"
    >
      {busy && <Spinner className="size-3" />}
      Download proof<span className="sr-only"> of transaction {transactionId}</span>
    </button>
  );
}
