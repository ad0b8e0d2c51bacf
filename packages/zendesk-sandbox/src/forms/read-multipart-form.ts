import busboy from 'busboy';
import type { Request } from 'express';

interface FormFile {
  field: string;
  fileName: string;
  contentType: string;
  data: Buffer;
}

export interface MultipartForm {
  fields: Map<string, string[]>;
  files: FormFile[];
}

export interface FormLimits {
  /** Largest single file; a larger one refuses the whole form. */
  fileBytes: number;
  files: number;
}

/** A form the browser sent that cannot be read: `status` is the HTTP answer (400, 413). */
export class FormReadError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Reads a browser form post (`multipart/form-data` or `application/x-www-form-urlencoded`), files
 * buffered in memory within `limits`. Empty file inputs (no name, no bytes) are skipped, as browsers
 * send one when nothing was chosen.
 */
export function readMultipartForm(req: Request, limits: FormLimits): Promise<MultipartForm> {
  const type = req.headers['content-type'] ?? '';
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(type))
    return Promise.reject(new FormReadError(400, 'expected a form post'));
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: {
          fileSize: limits.fileBytes,
          files: limits.files,
          fields: 200,
          fieldSize: 1_000_000,
        },
      });
    } catch (err) {
      reject(new FormReadError(400, (err as Error).message));
      return;
    }
    const form: MultipartForm = { fields: new Map(), files: [] };
    let failed: FormReadError | null = null;
    const fail = (error: FormReadError) => {
      failed ??= error;
      req.unpipe(parser);
      req.resume();
      reject(failed);
    };
    parser.on('field', (name, value) => {
      form.fields.set(name, [...(form.fields.get(name) ?? []), value]);
    });
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () =>
        fail(new FormReadError(413, `${info.filename} is larger than ${limits.fileBytes} bytes`)),
      );
      stream.on('end', () => {
        const data = Buffer.concat(chunks);
        if (!info.filename && data.length === 0) return;
        form.files.push({
          field,
          fileName: info.filename || 'attachment',
          contentType: info.mimeType || 'application/octet-stream',
          data,
        });
      });
    });
    parser.on('filesLimit', () => fail(new FormReadError(413, `at most ${limits.files} files`)));
    parser.on('error', (err: Error) => fail(new FormReadError(400, err.message)));
    parser.on('close', () => {
      if (!failed) resolve(form);
    });
    req.pipe(parser);
  });
}

/** The last value of a field, or '' when absent. */
export function formValue(form: MultipartForm, name: string): string {
  const values = form.fields.get(name);
  return values?.[values.length - 1] ?? '';
}
