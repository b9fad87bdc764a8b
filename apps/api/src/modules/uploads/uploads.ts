import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import sharp, { type Metadata } from 'sharp';
import { Refusal } from '../../http/refusals.ts';

/** Image types we accept, by what the bytes are (never by file name or the client's content type). */
const IMAGE_TYPES: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

interface DetectedImage {
  mimeType: string;
  extension: string;
}

/** The image type of these bytes, or undefined when they are not a JPEG, PNG, WebP or GIF. */
async function detectImage(bytes: Uint8Array): Promise<DetectedImage | undefined> {
  const type = await fileTypeFromBuffer(bytes);
  if (!type) return undefined;
  const extension = IMAGE_TYPES[type.mime];
  return extension ? { mimeType: type.mime, extension } : undefined;
}

/** `$DATA_DIR/uploads/<area>`: where uploads of one kind live. */
export function uploadDirectory(dataDir: string, area: string): string {
  return path.join(dataDir, 'uploads', area);
}

/**
 * Writes bytes under a random name (128 bits) that says nothing about the owner or the
 * original file name; answers the stored name. Not exported: the only way in is
 * `storeImage`, which takes what `processImageUpload` made, so no upload is stored as sent.
 */
async function saveUpload(directory: string, bytes: Uint8Array, extension: string): Promise<string> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const storedName = `${randomBytes(16).toString('hex')}.${extension}`;
  await writeFile(path.join(directory, storedName), bytes, { flag: 'wx', mode: 0o600 });
  return storedName;
}

/** Removes stored uploads (used to undo a save whose database write failed). */
export async function removeUploads(directory: string, storedNames: string[]): Promise<void> {
  await Promise.all(storedNames.map((name) => rm(path.join(directory, path.basename(name)), { force: true })));
}

/** The path of a stored upload; the name comes from our database, but is still kept inside the directory. */
export function storedUploadPath(directory: string, storedName: string): string {
  return path.join(directory, path.basename(storedName));
}

/** The most pixels an uploaded image may declare (width × height): 40 megapixels, a large phone photo. */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** Stored images are scaled down to fit this many pixels on their longer side. */
export const MAX_STORED_SIDE = 4096;

/** What we store instead of the upload: always a fresh encoding, never the sender's bytes. */
const OUTPUT: Record<string, { mimeType: string; extension: string }> = {
  'image/jpeg': { mimeType: 'image/jpeg', extension: 'jpg' },
  'image/png': { mimeType: 'image/png', extension: 'png' },
  'image/webp': { mimeType: 'image/webp', extension: 'webp' },
  // The first frame of a GIF, as PNG: no animation is needed for a document or a logo.
  'image/gif': { mimeType: 'image/png', extension: 'png' },
};

/**
 * Markup that browsers or other parsers would act on. An image file carrying it is a
 * polyglot (e.g. a JPEG that is also an HTML page): refused, even though re-encoding would
 * drop it, because nobody sends such a file by accident. Only tags of four letters or more are
 * looked for, so compressed pixel data matches by chance about once in 10^5 large photos.
 */
const MARKUP = /<(?:!doctype|html|script|iframe|object|embed|\?php)[\s>]/i;

/** Only processImageUpload can make a ProcessedImage, so storeImage cannot be handed the sender's bytes. */
declare const processedBrand: unique symbol;

export interface ProcessedImage {
  readonly [processedBrand]: true;
  bytes: Buffer;
  mimeType: string;
  extension: string;
  width: number;
  height: number;
}

export type ImageRejection = 'not_an_image' | 'image_too_large' | 'image_polyglot';

/** A refused upload: 400 with a message naming the file and a field map for the form. */
export class ImageRejectedError extends Refusal {
  constructor(
    readonly reason: ImageRejection,
    message: string,
    field: string,
    fieldMessage: string,
  ) {
    super(reason, { message, fields: { [field]: fieldMessage } });
    this.name = 'ImageRejectedError';
  }
}

export interface ImageUploadOptions {
  /** The form field the file came in, for the error's field map. */
  field: string;
  /** What the field accepts, e.g. 'Identity documents must be images (JPEG, PNG, WebP or GIF)'. */
  label: string;
  maxPixels?: number;
}

/**
 * The upload pipeline: the one way an uploaded image becomes storable (identity documents,
 * store logos, business documents, the demo data's images, and any upload to come): checked by content (JPEG, PNG, WebP or GIF), refused when it also carries
 * markup (a polyglot) or declares more than `maxPixels` (a decompression bomb, checked from
 * the header before any pixel is decoded), then decoded and encoded afresh with sharp. The
 * new file carries no metadata (EXIF GPS position, camera, author, comments, ICC profiles
 * are dropped; the EXIF orientation is applied to the pixels first), so only pixels survive.
 * Throws ImageRejectedError (400) for anything else.
 */
export async function processImageUpload(file: { fileName: string; bytes: Uint8Array }, options: ImageUploadOptions): Promise<ProcessedImage> {
  const maxPixels = options.maxPixels ?? MAX_IMAGE_PIXELS;
  const reject = (reason: ImageRejection, why: string) => new ImageRejectedError(reason, `${options.label}: '${file.fileName}' ${why}`, options.field, options.label);
  const type = await detectImage(file.bytes);
  const output = type && OUTPUT[type.mimeType];
  if (!output) throw reject('not_an_image', 'is not an image');
  if (MARKUP.test(Buffer.from(file.bytes).toString('latin1'))) throw reject('image_polyglot', 'is not only an image (it also holds markup)');

  let metadata: Metadata;
  try {
    metadata = await sharp(file.bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw reject('not_an_image', 'is not an image');
  }
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  if (width * height > maxPixels) throw reject('image_too_large', `is too large: at most ${Math.floor(maxPixels / 1_000_000)} megapixels`);

  try {
    const pipeline = sharp(file.bytes, { limitInputPixels: maxPixels, failOn: 'error', animated: false })
      .rotate()
      .resize({ width: MAX_STORED_SIDE, height: MAX_STORED_SIDE, fit: 'inside', withoutEnlargement: true });
    const encoded =
      output.extension === 'jpg'
        ? pipeline.jpeg({ quality: 90, mozjpeg: true })
        : output.extension === 'webp'
          ? pipeline.webp({ quality: 90 })
          : pipeline.png({ compressionLevel: 9 });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    const image = { bytes: data, mimeType: output.mimeType, extension: output.extension, width: info.width, height: info.height };
    return image as ProcessedImage;
  } catch {
    // Truncated or corrupt pixel data that the header did not reveal.
    throw reject('not_an_image', 'is not an image');
  }
}

/**
 * Stores a processed image in an upload area under a random name; answers the stored name.
 * The only writer of uploads: it takes a ProcessedImage, so an image that skipped the
 * pipeline does not type-check.
 */
export async function storeImage(directory: string, image: ProcessedImage): Promise<string> {
  return saveUpload(directory, image.bytes, image.extension);
}
