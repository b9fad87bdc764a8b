import { useEffect, useState } from 'react';
import { buttonClasses } from '../../../components/Button.tsx';
import { qrSvgAddress } from '../../../lib/qr-code.ts';

/**
 * A QR code of a payment link, drawn by the qrcode library as SVG, with a 'Download QR' link
 * that saves the same SVG (a file a merchant can print at any size).
 */
export function LinkQrCode({ url, fileName }: { url: string; fileName: string }) {
  const [qr, setQr] = useState<{ url: string; address: string }>();
  useEffect(() => {
    let current = true;
    void qrSvgAddress(url).then((address) => {
      if (current) setQr({ url, address });
    });
    return () => {
      current = false;
    };
  }, [url]);
  const address = qr?.url === url ? qr.address : undefined;

  return (
    <div className="flex flex-col items-center gap-3">
      {address ? (
        <img src={address} alt="QR code of the payment link" width={176} height={176} className="size-44 rounded-lg border border-slate-200 bg-white" />
      ) : (
        <div role="status" aria-label="Drawing the QR code" className="size-44 animate-pulse rounded-lg bg-slate-200/70" />
      )}
      <a
        href={address}
        download={fileName}
        aria-disabled={address ? undefined : true}
        className={buttonClasses('secondary', 'md', address ? '' : 'pointer-events-none opacity-60')}
      >
        Download QR
      </a>
    </div>
  );
}
