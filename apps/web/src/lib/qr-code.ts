import QRCode from 'qrcode';

/** The SVG of a QR code for `text`, as a data: address (the CSP allows data: images). */
export async function qrSvgAddress(text: string): Promise<string> {
  // Level M survives a smudged print and keeps the code small enough to scan from a phone screen.
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#0f172a', light: '#ffffff' } });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
