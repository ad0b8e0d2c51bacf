// Sizes are exact. 50 MB per attach request is 50,000,000 bytes (as MAX_REPORT_BYTES
// reads 10 MB); the largest file one request holds is that less its multipart envelope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assumptions, maxAttachFileBytes, RequestValidationError } from '../src';
import { startStubServer, type StubServer } from './support/stub-server';

let stub: StubServer;
beforeAll(async () => {
  stub = await startStubServer();
});
afterAll(() => stub.close());

describe('maxAttachFileBytes', () => {
  it('is the request limit less the envelope of exactly that file', async () => {
    expect(assumptions.MAX_ATTACH_BYTES).toBe(50_000_000);
    const limit = await maxAttachFileBytes('evidence.png', 'image/png');
    expect(limit).toBeGreaterThan(49_999_500);
    expect(limit).toBeLessThan(50_000_000);
    // a longer name leaves room for fewer bytes, byte for byte in both its forms (filename and
    // filename*), the encoded one three bytes for each byte of UTF-8 outside ASCII
    expect(await maxAttachFileBytes('evidence-long.png', 'image/png')).toBe(limit - 10);
    expect(await maxAttachFileBytes('évidence.png', 'image/png')).toBe(limit - 5);
  });

  it('a file of exactly that size is sent; one byte more is refused before sending', async () => {
    const limit = await maxAttachFileBytes('evidence.png', 'image/png');
    stub.handle(() => ({ json: { message: 'Attachments added', id: 'inc_1' } }));
    const client = stub.client();
    const file = (size: number) => ({
      filename: 'evidence.png',
      contentType: 'image/png',
      content: new Uint8Array(size),
    });
    await client.incidents.attach('inc_1', [file(limit)]);
    expect(stub.requests).toHaveLength(1);
    expect(Number(stub.requests[0]!.headers['content-length'])).toBe(50_000_000);
    await expect(client.incidents.attach('inc_1', [file(limit + 1)])).rejects.toBeInstanceOf(
      RequestValidationError,
    );
    expect(stub.requests).toHaveLength(1);
  });
});
