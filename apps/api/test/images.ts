import sharp from 'sharp';

/** A small PNG in one colour, made by sharp (the library the server re-encodes uploads with). */
export function solidPng(size: number, background: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 3, background } }).png().toBuffer();
}

const TINY_PNG = await solidPng(2, { r: 13, g: 148, b: 136 });

/** A valid 2x2 PNG for upload tests: the repository holds no binary fixtures. */
export function tinyPng(): Buffer {
  return Buffer.from(TINY_PNG);
}
