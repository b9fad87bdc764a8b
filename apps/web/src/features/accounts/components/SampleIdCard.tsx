import { PRODUCT_NAME } from '@kestrel/shared';
import { useId, type ReactNode } from 'react';

/*
 * Sample identity card images (drawn, not photographs) that show what a clear upload of
 * each side looks like. No real person or document is depicted.
 */

const card = { width: 340, height: 214 };

function CardFrame({ children, label }: { children: ReactNode; label: string }) {
  // useId's punctuation is not safe inside url(#...).
  const gradientId = `sample-id-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  return (
    <svg viewBox={`0 0 ${card.width} ${card.height}`} role="img" aria-label={label} className="h-auto w-full max-w-sm">
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#effaf8" />
          <stop offset="1" stopColor="#d7f2ed" />
        </linearGradient>
      </defs>
      <rect x="1" y="1" width={card.width - 2} height={card.height - 2} rx="14" fill={`url(#${gradientId})`} stroke="#7ccfc3" strokeWidth="2" />
      {children}
      <text
        x={card.width / 2}
        y={card.height / 2 + 18}
        textAnchor="middle"
        fontSize="54"
        fontWeight="800"
        fill="#1a605b"
        opacity="0.08"
        transform={`rotate(-18 ${card.width / 2} ${card.height / 2})`}
      >
        SAMPLE
      </text>
    </svg>
  );
}

export function SampleIdFront() {
  return (
    <CardFrame label="Sample identity card, front: photo, name, date of birth and document number">
      <rect x="1" y="1" width={card.width - 2} height="38" rx="14" fill="#1a605b" />
      <rect x="1" y="26" width={card.width - 2} height="13" fill="#1a605b" />
      <text x="18" y="26" fontSize="14" fontWeight="700" fill="#fff" letterSpacing="1.5">
        IDENTITY CARD
      </text>
      <text x={card.width - 18} y="26" fontSize="11" fill="#b0e4db" textAnchor="end">
        {PRODUCT_NAME.toUpperCase()} SAMPLE
      </text>
      {/* Photo */}
      <rect x="18" y="56" width="84" height="104" rx="8" fill="#fff" stroke="#b0e4db" />
      <circle cx="60" cy="94" r="20" fill="#b0e4db" />
      <path d="M28 156c4-24 18-34 32-34s28 10 32 34z" fill="#b0e4db" />
      {/* Fields */}
      {[
        ['NAME', 'JORDAN A. SAMPLE', 62],
        ['DATE OF BIRTH', '01 JAN 1990', 98],
        ['DOCUMENT NO.', 'X0000000', 134],
      ].map(([label, value, y]) => (
        <g key={label}>
          <text x="118" y={Number(y)} fontSize="9" fontWeight="600" fill="#2a968b" letterSpacing="1">
            {label}
          </text>
          <text x="118" y={Number(y) + 17} fontSize="14" fontWeight="700" fill="#16413e">
            {value}
          </text>
        </g>
      ))}
      {/* Signature */}
      <path d="M120 186c10-12 18 6 26-4s12-10 18 0 14 2 22-6" fill="none" stroke="#16413e" strokeWidth="1.6" strokeLinecap="round" />
      <line x1="118" y1="194" x2="250" y2="194" stroke="#7ccfc3" />
      <circle cx="296" cy="172" r="22" fill="none" stroke="#f08a4b" strokeWidth="2" opacity="0.7" />
      <circle cx="296" cy="172" r="14" fill="none" stroke="#f08a4b" strokeWidth="1.5" opacity="0.7" />
    </CardFrame>
  );
}

export function SampleIdBack() {
  const bars = Array.from({ length: 46 }, (_, index) => ({ x: 18 + index * 6.6, w: index % 3 === 0 ? 3.2 : index % 2 === 0 ? 1.4 : 2.2 }));
  return (
    <CardFrame label="Sample identity card, back: address, barcode and machine-readable lines">
      <rect x="1" y="22" width={card.width - 2} height="34" fill="#16413e" />
      <text x="18" y="80" fontSize="9" fontWeight="600" fill="#2a968b" letterSpacing="1">
        ADDRESS
      </text>
      <text x="18" y="97" fontSize="13" fontWeight="700" fill="#16413e">
        1 SAMPLE STREET, SAMPLE CITY
      </text>
      <g fill="#16413e">
        {bars.map((bar) => (
          <rect key={bar.x} x={bar.x} y="110" width={bar.w} height="34" />
        ))}
      </g>
      <g fontFamily="ui-monospace, monospace" fontSize="12" fill="#16413e" letterSpacing="1.4">
        <text x="18" y="170">
          IDSAMX0000000&lt;&lt;&lt;&lt;&lt;&lt;&lt;&lt;&lt;&lt;&lt;&lt;
        </text>
        <text x="18" y="188">
          9001015&lt;3001019SAM&lt;&lt;&lt;&lt;&lt;&lt;&lt;
        </text>
        <text x="18" y="206">
          SAMPLE&lt;&lt;JORDAN&lt;A&lt;&lt;&lt;&lt;&lt;&lt;&lt;&lt;&lt;
        </text>
      </g>
    </CardFrame>
  );
}
