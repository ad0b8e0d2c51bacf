import { ATTACH_FILE_FIELD, MAX_ATTACH_BYTES } from '../assumptions';
import { RequestValidationError } from '../errors';
import type { TReportAttachment } from '../schemas/requests/report';
import type { RequestBody } from './transport';

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
  const form = new FormData();
  for (const [name, value] of Object.entries(options.fields)) {
    if (value !== undefined) form.append(name, value);
  }
  for (const file of options.files) {
    const blob =
      file.content instanceof Blob
        ? file.content
        : new Blob([file.content as Uint8Array<ArrayBuffer>], { type: file.contentType });
    const typed =
      file.contentType && blob.type !== file.contentType
        ? new Blob([blob], { type: file.contentType })
        : blob;
    form.append(options.fileField, typed, file.filename);
  }
  const encoded = new Response(form);
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  if (bytes.byteLength >= options.maxBytes) {
    throw new RequestValidationError(
      [
        {
          code: 'custom',
          path: [options.fileField],
          message: `${options.limitName} must total under ${options.maxBytes} bytes; the encoded request has ${bytes.byteLength}`,
          input: undefined,
        },
      ],
      'request',
    );
  }
  return {
    kind: 'bytes',
    value: bytes,
    contentType: encoded.headers.get('content-type') ?? 'multipart/form-data',
  };
}

/**
 * The largest file `incidents.attach` takes alone under this name and type: the 50 MB request
 * limit (MAX_ATTACH_BYTES, 50,000,000 bytes) less the multipart envelope around that one file,
 * measured by encoding it exactly as attach does.
 */
export async function maxAttachFileBytes(filename: string, contentType: string): Promise<number> {
  const form = new FormData();
  form.append(ATTACH_FILE_FIELD, new Blob([], { type: contentType }), filename);
  const envelope = (await new Response(form).arrayBuffer()).byteLength;
  return Math.max(0, MAX_ATTACH_BYTES - envelope);
}
