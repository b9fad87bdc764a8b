import { CheckCircleIcon } from '../../../components/icons.tsx';
import { Spinner } from '../../../components/Spinner.tsx';

/** The spec's form submit states: idle, loading, success (green button), error (red button). */
export type SubmitState = 'idle' | 'loading' | 'success' | 'error';

const tones: Record<SubmitState, string> = {
  idle: 'bg-brand-700 hover:bg-brand-800 active:bg-brand-900',
  loading: 'bg-brand-700/80',
  success: 'bg-success-700',
  error: 'bg-danger-700 hover:bg-danger-900',
};

const stateText: Record<SubmitState, string | undefined> = {
  idle: undefined,
  loading: 'Submitting',
  success: 'Done',
  error: 'Try again',
};

/** A submit button that shows where the submission is; its colour is never the only sign. */
export function SubmitStateButton({ state, label }: { state: SubmitState; label: string }) {
  const busy = state === 'loading' || state === 'success';
  return (
    <button
      type="submit"
      disabled={busy}
      aria-busy={state === 'loading' || undefined}
      data-state={state}
      className={`inline-flex h-12 min-w-36 items-center justify-center gap-2 rounded-lg px-5 font-semibold text-white shadow-sm transition-colors disabled:cursor-not-allowed ${tones[state]}`}
    >
      {state === 'loading' && <Spinner className="size-4" />}
      {state === 'success' && <CheckCircleIcon className="size-5" />}
      {stateText[state] ?? label}
    </button>
  );
}
