import { useCallback, useId, type ChangeEvent, type Ref } from 'react';
import { CloseIcon } from '../../../components/icons.tsx';

/** The server's limits for one upload (PATCH /v1/account/upload-image). */
export const MAX_IDENTITY_IMAGES = 10;
export const MAX_IDENTITY_IMAGE_BYTES = 5 * 1024 * 1024;

const sameFile = (a: File, b: File) => a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A preview of a chosen file; the object URL lives exactly as long as the <img>. */
function FilePreview({ file }: { file: File }) {
  const attach = useCallback(
    (image: HTMLImageElement | null) => {
      if (!image) return;
      const url = URL.createObjectURL(file);
      image.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [file],
  );
  return <img ref={attach} alt="" className="size-12 shrink-0 rounded-md border border-slate-200 bg-slate-100 object-cover" />;
}

/**
 * The identity image upload: several image files (accept="image/*"), picked at once or one
 * after another (front, then back). Chosen files are listed with a preview and can be removed.
 */
export function IdentityImagesInput({
  label,
  files,
  onChange,
  onBlur,
  inputRef,
  error,
  className = '',
}: {
  label: string;
  files: readonly File[] | undefined;
  onChange: (files: File[]) => void;
  onBlur: () => void;
  inputRef: Ref<HTMLInputElement>;
  error: string | undefined;
  className?: string;
}) {
  const inputId = useId();
  const titleId = `${inputId}-title`;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const chosen = files ?? [];

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = Array.from(event.target.files ?? []);
    // The list lives in the form; clearing the input lets the same file be picked again after a removal.
    event.target.value = '';
    onChange([...chosen, ...picked.filter((file) => !chosen.some((existing) => sameFile(existing, file)))]);
  };

  return (
    <div className={className}>
      <label
        htmlFor={inputId}
        className={`flex cursor-pointer flex-col items-center justify-center gap-1 rounded-lg border-2 border-dashed px-4 py-6 text-center transition-colors focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand-600 ${
          error ? 'border-danger-600 bg-danger-50/40' : 'border-slate-300 hover:border-brand-400 hover:bg-brand-50/40'
        }`}
      >
        <span id={titleId} className={`font-semibold ${error ? 'text-danger-700' : 'text-slate-900'}`}>
          {label}
        </span>
        <span id={hintId} className="text-sm text-slate-600">
          Front and back of your document. Images only, up to {MAX_IDENTITY_IMAGE_BYTES / (1024 * 1024)} MB each.
        </span>
        <span className="mt-2 inline-flex h-9 items-center rounded-lg bg-brand-700 px-3 text-sm font-semibold text-white">Choose images</span>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept="image/*"
          multiple
          onChange={onPick}
          onBlur={onBlur}
          // Named by the title alone; the hint and the error are its description.
          aria-labelledby={titleId}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          className="sr-only"
        />
      </label>
      {chosen.length > 0 && (
        <ul aria-label="Chosen images" className="mt-3 space-y-2">
          {chosen.map((file) => (
            <li key={`${file.name}-${file.size}-${file.lastModified}`} className="flex items-center gap-3 rounded-lg border border-slate-200 p-2">
              <FilePreview file={file} />
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-medium text-slate-900">{file.name}</span>
                <span className="block text-xs text-slate-600">{formatSize(file.size)}</span>
              </span>
              <button
                type="button"
                onClick={() => onChange(chosen.filter((other) => other !== file))}
                aria-label={`Remove ${file.name}`}
                className="flex size-9 shrink-0 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 hover:text-slate-900"
              >
                <CloseIcon className="size-5" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p id={errorId} className="mt-1.5 text-sm font-medium text-danger-700">
          {error}
        </p>
      )}
    </div>
  );
}
