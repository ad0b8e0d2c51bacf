import busboy from 'busboy';
import type { Request } from 'express';
import { HttpError } from './errors';

export interface MultipartBody {
  fields: Record<string, string>;
  files: { field: string; fileName: string; size: number; contentType: string }[];
}

export function isMultipart(req: Request): boolean {
  return (req.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data');
}

/**
 * Reads a multipart body, keeping file sizes only (the sandbox stores no file content).
 * Exceeding maxFiles or maxBytes fails with 400 or 413 like the real limits.
 */
export function readMultipart(
  req: Request,
  limits: { maxFiles: number; maxBytes: number },
): Promise<MultipartBody> {
  const declared = Number(req.get('content-length') ?? '0');
  if (declared >= limits.maxBytes) {
    return Promise.reject(
      new HttpError(413, `Request too large: the limit is ${limits.maxBytes} bytes`),
    );
  }
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: limits.maxFiles } });
    } catch {
      reject(new HttpError(400, "Invalid parameter 'body': malformed multipart/form-data"));
      return;
    }
    const body: MultipartBody = { fields: {}, files: [] };
    let total = 0;
    let failure: HttpError | undefined;
    const fail = (error: HttpError) => {
      failure ??= error;
    };
    parser.on('field', (name, value) => {
      total += value.length;
      body.fields[name] = value;
    });
    parser.on('file', (field, stream, info) => {
      const file = {
        field,
        fileName: info.filename ?? 'attachment',
        size: 0,
        contentType: info.mimeType,
      };
      stream.on('data', (chunk: Buffer) => {
        file.size += chunk.length;
        total += chunk.length;
        if (total >= limits.maxBytes)
          fail(new HttpError(413, `Request too large: the limit is ${limits.maxBytes} bytes`));
      });
      stream.on('end', () => body.files.push(file));
    });
    parser.on('filesLimit', () =>
      fail(new HttpError(400, `Invalid parameter 'attachments': at most ${limits.maxFiles} files`)),
    );
    parser.on('error', () =>
      reject(
        failure ?? new HttpError(400, "Invalid parameter 'body': malformed multipart/form-data"),
      ),
    );
    parser.on('close', () => (failure ? reject(failure) : resolve(body)));
    // A client that goes away mid-upload must not leave the request pending forever.
    req.on('aborted', () => reject(new HttpError(400, "Invalid parameter 'body': upload aborted")));
    req.pipe(parser);
  });
}
