import { PRODUCT_NAME } from '@kestrel/shared';

/** The kestrel mark (same drawing as public/favicon.svg): a hovering kestrel, rust tail band. */
export function KestrelMark({ className = 'size-8' }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="var(--color-brand-700)" />
      <path
        fill="#fff"
        d="M2.5 8.5Q10 9.5 14.1 13.6L15 10.6Q16 8.8 17 10.6L17.9 13.6Q22 9.5 29.5 8.5Q23 13.8 18.3 17.3L19.8 24.2Q16 26 12.2 24.2L13.7 17.3Q9 13.8 2.5 8.5Z"
      />
      <path fill="var(--color-accent-400)" d="M12.5 22.8Q16 24.4 19.5 22.8L19.8 24.2Q16 26 12.2 24.2Z" />
    </svg>
  );
}

/** Mark plus wordmark. The wrapping link (if any) gets its accessible name from the text. */
export function Logo({ tone = 'dark', compact = false }: { tone?: 'dark' | 'light'; compact?: boolean }) {
  return (
    <span className="inline-flex items-center gap-2">
      <KestrelMark />
      <span
        className={`text-xl font-bold tracking-tight ${tone === 'dark' ? 'text-brand-900' : 'text-white'} ${compact ? 'max-sm:sr-only' : ''}`}
      >
        {PRODUCT_NAME}
      </span>
    </span>
  );
}
