import { storeMessages } from '@kestrel/shared';
import type { UploadedFile } from '../../http/multipart.ts';
import { processImageUpload, removeUploads, storeImage as storeProcessedImage, uploadDirectory, type ProcessedImage } from '../uploads/uploads.ts';

/** Where store logos and business documents live under $DATA_DIR/uploads. */
export const STORE_LOGO_AREA = 'store-logos';
export const STORE_DOCUMENT_AREA = 'store-documents';

export interface StoredImage {
  storedName: string;
  mimeType: string;
  sizeBytes: number;
}

/**
 * A store logo or business document through the upload pipeline (uploads/uploads.ts): checked
 * by content, polyglots and decompression bombs refused, re-encoded without metadata. Throws
 * a 400 naming the file and the field otherwise.
 */
export function processStoreImage(file: UploadedFile, field: 'storeLogo' | 'businessDocuments'): Promise<ProcessedImage> {
  return processImageUpload(file, { field, label: storeMessages.imagesOnly });
}

/** Stores a processed store image; what is kept is the fresh encoding, never the sender's bytes. */
export async function storeImage(dataDir: string, area: string, image: ProcessedImage): Promise<StoredImage> {
  const storedName = await storeProcessedImage(uploadDirectory(dataDir, area), image);
  return { storedName, mimeType: image.mimeType, sizeBytes: image.bytes.length };
}

export function removeStoreImages(dataDir: string, area: string, storedNames: string[]): Promise<void> {
  return removeUploads(uploadDirectory(dataDir, area), storedNames);
}
