import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';

/** Image types we accept, by what the bytes are (never by file name or the client's content type). */
const IMAGE_TYPES: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

export interface DetectedImage {
  mimeType: string;
  extension: string;
}

/** The image type of these bytes, or undefined when they are not a JPEG, PNG, WebP or GIF. */
export async function detectImage(bytes: Uint8Array): Promise<DetectedImage | undefined> {
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
 * original file name; answers the stored name.
 */
export async function saveUpload(directory: string, bytes: Uint8Array, extension: string): Promise<string> {
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
