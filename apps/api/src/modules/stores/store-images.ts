import type { UploadedFile } from '../../http/multipart.ts';
import { detectImage, removeUploads, saveUpload, uploadDirectory, type DetectedImage } from '../uploads/uploads.ts';

/** Where store logos and business documents live under $DATA_DIR/uploads. */
export const STORE_LOGO_AREA = 'store-logos';
export const STORE_DOCUMENT_AREA = 'store-documents';

export interface StoredImage {
  storedName: string;
  mimeType: string;
  sizeBytes: number;
}

/** The image type of an upload, or undefined when it is not an image we accept. */
export function checkStoreImage(file: UploadedFile): Promise<DetectedImage | undefined> {
  return detectImage(file.bytes);
}

/**
 * The one place the stores feature stores an image (checked beforehand with checkStoreImage),
 * so a change in how uploads are kept (e.g. re-encoding) is made here only.
 */
export async function storeImage(dataDir: string, area: string, file: UploadedFile, type: DetectedImage): Promise<StoredImage> {
  const storedName = await saveUpload(uploadDirectory(dataDir, area), file.bytes, type.extension);
  return { storedName, mimeType: type.mimeType, sizeBytes: file.bytes.length };
}

export function removeStoreImages(dataDir: string, area: string, storedNames: string[]): Promise<void> {
  return removeUploads(uploadDirectory(dataDir, area), storedNames);
}
