import type { FastifyRequest } from 'fastify';
import { refuse, Refusal } from './refusals.ts';
import { containsNul, NUL_MESSAGE } from './hardening.ts';

export interface UploadedFile {
  fieldName: string;
  fileName: string;
  bytes: Buffer;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: UploadedFile[];
}

export interface MultipartOptions {
  /** The only field name(s) files may use. */
  fileField: string | readonly string[];
  maxFiles: number;
  tooLarge: string;
  tooMany: string;
}

/**
 * Reads a whole multipart/form-data request into memory (bounded by the size and count
 * limits set where the multipart plugin is registered), so nothing is stored before every
 * part has been checked. Limit breaches become readable 413 answers.
 */
export async function readMultipart(request: FastifyRequest, options: MultipartOptions): Promise<MultipartBody> {
  if (!request.isMultipart()) throw refuse('multipart_required');
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  const allowed: readonly string[] = typeof options.fileField === 'string' ? [options.fileField] : options.fileField;
  const limitField = allowed[0] ?? 'file';
  try {
    for await (const part of request.parts({ limits: { files: options.maxFiles } })) {
      if (part.type === 'file') {
        if (!allowed.includes(part.fieldname)) {
          // Drain the stream so the parser can move on, then refuse the request.
          await part.toBuffer().catch(() => undefined);
          throw refuse('unexpected_file', { message: `Unexpected file field '${part.fieldname}'`, fields: { [part.fieldname]: 'Unexpected file' } });
        }
        files.push({ fieldName: part.fieldname, fileName: part.filename, bytes: await part.toBuffer() });
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof Refusal) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw refuse('file_too_large', { message: options.tooLarge, fields: { [limitField]: options.tooLarge } });
    if (code === 'FST_FILES_LIMIT') throw refuse('too_many_parts', { message: options.tooMany, fields: { [limitField]: options.tooMany } });
    throw error;
  }
  // The JSON routes are guarded by registerHardening; multipart fields are read here, after it.
  if (containsNul(fields)) throw refuse('nul_character', { message: NUL_MESSAGE });
  return { fields, files };
}
