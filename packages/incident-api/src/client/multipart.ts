import { ATTACH_FILE_FIELD, MAX_ATTACH_BYTES } from '../assumptions';
import { RequestValidationError } from '../errors';
import type { TReportAttachment } from '../schemas/requests/report';
import type { RequestBody } from './transport';

const CRLF = '\r\n';

/** Quoted-string parameter text: what is not printable ASCII, and `"`, `\\` and `%`, become `_`. */
function asciiFallback(name: string): string {
  return name.replace(/[^\x20-\x7e]|["\\%]/gu, '_');
}

/** RFC 5987 ext-value: UTF-8, percent-encoded but for attr-chars. */
function extValue(name: string): string {
  return `UTF-8''${encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )}`;
}

/**
 * A file part's Content-Disposition: the name as written in `filename*` (RFC 5987, UTF-8), which
 * multipart parsers prefer, and an ASCII `filename` for those that read only that one (read as
 * Latin-1 by many, which would garble raw UTF-8 there).
 */
function fileDisposition(field: string, filename: string): string {
  return `form-data; name="${field}"; filename="${asciiFallback(filename)}"; filename*=${extValue(filename)}`;
}

function boundary(): string {
  const random = crypto.getRandomValues(new Uint8Array(16));
  return `----incident-desk-${Array.from(random, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Encodes text fields and files as multipart/form-data, the file part repeated once per file
 * under `fileField`. Encoding up front gives the exact request size, checked against `maxBytes`
 * (`exclusive`: the size must stay strictly under it) before anything is sent.
 */
export async function encodeMultipart(options: {
  fields: Record<string, string | undefined>;
  fileField: string;
  files: readonly TReportAttachment[];
  maxBytes: number;
  limitName: string;
}): Promise<RequestBody> {
  const bytes = await multipartBytes(options.fields, options.fileField, options.files);
  if (bytes.body.byteLength >= options.maxBytes) {
    throw new RequestValidationError(
      [
        {
          code: 'custom',
          path: [options.fileField],
          message: `${options.limitName} must total under ${options.maxBytes} bytes; the encoded request has ${bytes.body.byteLength}`,
          input: undefined,
        },
      ],
      'request',
    );
  }
  return {
    kind: 'bytes',
    value: bytes.body,
    contentType: `multipart/form-data; boundary=${bytes.boundary}`,
  };
}

async function multipartBytes(
  fields: Record<string, string | undefined>,
  fileField: string,
  files: readonly TReportAttachment[],
): Promise<{ body: Uint8Array; boundary: string }> {
  const separator = boundary();
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    chunks.push(
      encoder.encode(
        `--${separator}${CRLF}Content-Disposition: form-data; name="${name}"${CRLF}${CRLF}${value}${CRLF}`,
      ),
    );
  }
  for (const file of files) {
    const content =
      file.content instanceof Blob
        ? new Uint8Array(await file.content.arrayBuffer())
        : (file.content as Uint8Array);
    const type =
      file.contentType ||
      (file.content instanceof Blob ? file.content.type : '') ||
      'application/octet-stream';
    chunks.push(
      encoder.encode(
        `--${separator}${CRLF}Content-Disposition: ${fileDisposition(fileField, file.filename)}${CRLF}` +
          `Content-Type: ${type}${CRLF}${CRLF}`,
      ),
      content,
      encoder.encode(CRLF),
    );
  }
  chunks.push(encoder.encode(`--${separator}--${CRLF}`));
  const body = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return { body, boundary: separator };
}

/**
 * The largest file `incidents.attach` takes alone under this name and type: the 50 MB request
 * limit (MAX_ATTACH_BYTES, 50,000,000 bytes) less the multipart envelope around that one file,
 * measured by encoding it exactly as attach does.
 */
export async function maxAttachFileBytes(filename: string, contentType: string): Promise<number> {
  const envelope = (
    await multipartBytes({}, ATTACH_FILE_FIELD, [
      { filename, contentType, content: new Uint8Array(0) },
    ])
  ).body.byteLength;
  return Math.max(0, MAX_ATTACH_BYTES - envelope);
}
