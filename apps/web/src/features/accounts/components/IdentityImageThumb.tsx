import { formatDate } from '@kestrel/shared';
import { useCallback } from 'react';
import { Spinner } from '../../../components/Spinner.tsx';
import { useIdentityImage, type IdentityImage } from '../api.ts';

/**
 * One uploaded identity image. The image route needs the Authorization header, so the
 * bytes come through the http client as a blob and show through an object URL that
 * lives exactly as long as the <img>.
 */
export function IdentityImageThumb({ image, index }: { image: IdentityImage; index: number }) {
  const blob = useIdentityImage(image.url);
  const data = blob.data;
  const attach = useCallback(
    (element: HTMLImageElement | null) => {
      if (!element || !data) return;
      const url = URL.createObjectURL(data);
      element.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [data],
  );
  const label = `Identity document ${index + 1}, uploaded ${formatDate(image.createdAt)}`;

  return (
    <figure className="w-28 shrink-0">
      <div className="flex aspect-[4/3] items-center justify-center overflow-hidden rounded-lg border border-slate-200 bg-slate-100">
        {data ? (
          <img ref={attach} alt={label} className="size-full object-cover" />
        ) : blob.isError ? (
          <span className="px-2 text-center text-xs text-danger-700">Could not load</span>
        ) : (
          <Spinner className="size-5 text-slate-400" label={`Loading ${label}`} />
        )}
      </div>
      <figcaption className="mt-1 text-xs text-slate-600">{formatDate(image.createdAt)}</figcaption>
    </figure>
  );
}
