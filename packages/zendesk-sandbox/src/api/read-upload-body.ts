import busboy from 'busboy';
import type { Request } from 'express';

export interface UploadedFile {
  data: Buffer;
  contentType: string;
  fileName: string | null;
}

/** Zendesk takes the raw file as the body; multipart (what some clients send) is accepted too: first file wins. */
export function readUploadBody(req: Request, limitBytes: number): Promise<UploadedFile> {
  const contentType = req.headers['content-type'] ?? 'application/octet-stream';
  if (req.readableEnded) {
    // A JSON body parser already consumed the stream (a file sent as application/json): keep its text.
    return Promise.resolve({
      data: Buffer.from(JSON.stringify(req.body ?? null)),
      contentType: 'application/json',
      fileName: null,
    });
  }
  if (contentType.startsWith('multipart/form-data')) {
    return new Promise((resolve, reject) => {
      const parser = busboy({ headers: req.headers, limits: { fileSize: limitBytes, files: 1 } });
      let found: UploadedFile | null = null;
      parser.on('file', (_name, stream, info) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          found = {
            data: Buffer.concat(chunks),
            contentType: info.mimeType,
            fileName: info.filename || null,
          };
        });
      });
      parser.on('error', reject);
      parser.on('close', () =>
        found ? resolve(found) : reject(new Error('multipart upload without a file')),
      );
      req.pipe(parser);
    });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        reject(new Error('upload too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () =>
      resolve({
        data: Buffer.concat(chunks),
        contentType: contentType.split(';')[0] ?? contentType,
        fileName: null,
      }),
    );
    req.on('error', reject);
  });
}
