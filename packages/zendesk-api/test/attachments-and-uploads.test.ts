import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ZendeskAttachmentTooLargeError,
  ZendeskRecordNotFoundError,
  ZendeskRequestValidationError,
} from '../src';
import { clientFor } from './support/client-fixture';
import { FakeZendesk } from './support/fake-zendesk';

let fake: FakeZendesk;
let storage: FakeZendesk;
beforeEach(async () => {
  fake = await FakeZendesk.start();
  storage = await FakeZendesk.start();
});
afterEach(async () => {
  expect(fake.unexpected).toEqual([]);
  expect(storage.unexpected).toEqual([]);
  await fake.close();
  await storage.close();
});

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);

describe('attachments', () => {
  it('downloads a content_url on the account origin with the token', async () => {
    fake.on('GET', '/attachments/token/abc/', {
      body: png,
      headers: { 'content-type': 'image/png' },
    });
    const { client } = clientFor(fake);

    const file = await client.attachments.download(
      `${fake.url}/attachments/token/abc/?name=shot.png`,
      { maxBytes: 1024 },
    );

    expect(file.data.equals(png)).toBe(true);
    expect(file.size).toBe(png.length);
    expect(file.contentType).toBe('image/png');
    expect(fake.requests[0]?.query.get('name')).toBe('shot.png');
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer token-1');
  });

  it('never sends the token to another host, even one listed as an attachment source', async () => {
    storage.on('GET', '/file/abc', { body: png });
    const { client } = clientFor(fake, { attachmentSources: { hosts: [storage.url] } });
    await client.attachments.download(`${storage.url}/file/abc`, { maxBytes: 1024 });
    expect(storage.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('drops the token when the account redirects to file storage', async () => {
    fake.on('GET', '/attachments/token/abc/', {
      status: 302,
      headers: { location: `${storage.url}/file/abc` },
    });
    storage.on('GET', '/file/abc', { body: png });
    const { client } = clientFor(fake, { attachmentSources: { hosts: [storage.url] } });
    const file = await client.attachments.download(`${fake.url}/attachments/token/abc/`, {
      maxBytes: 1024,
    });
    expect(file.size).toBe(png.length);
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer token-1');
    expect(storage.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('refuses a file whose Content-Length exceeds maxBytes', async () => {
    fake.on('GET', '/attachments/token/big/', { body: Buffer.alloc(2048) });
    const { client } = clientFor(fake);
    const error = await client.attachments
      .download(`${fake.url}/attachments/token/big/`, { maxBytes: 1024 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZendeskAttachmentTooLargeError);
    expect(error).toMatchObject({ maxBytes: 1024, size: 2048 });
  });

  it('stops a stream without Content-Length once it passes maxBytes', async () => {
    fake.on('GET', '/attachments/token/chunked/', {
      chunks: [Buffer.alloc(600), Buffer.alloc(600)],
    });
    const { client } = clientFor(fake);
    const { body, contentLength } = await client.attachments.stream(
      `${fake.url}/attachments/token/chunked/`,
      { maxBytes: 1000 },
    );
    expect(contentLength).toBeUndefined();
    let received = 0;
    const read = (async () => {
      for await (const chunk of body) received += chunk.byteLength;
    })();
    await expect(read).rejects.toBeInstanceOf(ZendeskAttachmentTooLargeError);
    expect(received).toBeLessThanOrEqual(1000);
  });

  it('streams a file within the limit', async () => {
    fake.on('GET', '/attachments/token/ok/', { chunks: [Buffer.from('ab'), Buffer.from('cd')] });
    const { client } = clientFor(fake);
    const file = await client.attachments.download(`${fake.url}/attachments/token/ok/`, {
      maxBytes: 4,
    });
    expect(file.data.toString()).toBe('abcd');
  });

  it('maps a missing attachment to ZendeskRecordNotFoundError', async () => {
    fake.on('GET', '/attachments/token/gone/', {
      status: 404,
      json: { error: 'RecordNotFound', description: 'Not found' },
    });
    const { client } = clientFor(fake);
    await expect(
      client.attachments.download(`${fake.url}/attachments/token/gone/`, { maxBytes: 10 }),
    ).rejects.toBeInstanceOf(ZendeskRecordNotFoundError);
  });

  it('refuses a content_url that is not http(s)', async () => {
    const { client } = clientFor(fake);
    await expect(
      client.attachments.download('file:///etc/passwd', { maxBytes: 10 }),
    ).rejects.toBeInstanceOf(ZendeskRequestValidationError);
  });
});

describe('uploads.create', () => {
  it('POSTs the raw bytes with the filename and returns the token', async () => {
    fake.on('POST', '/api/v2/uploads.json', {
      status: 201,
      json: {
        upload: {
          token: 'upl_1',
          expires_at: '2026-11-24T10:00:00Z',
          attachment: { id: 1, file_name: 'evidence 1.png', content_url: 'https://x/a', size: 8 },
          attachments: [
            { id: 1, file_name: 'evidence 1.png', content_url: 'https://x/a', size: 8 },
          ],
        },
      },
    });
    const { client } = clientFor(fake);

    const upload = await client.uploads.create({
      filename: 'evidence 1.png',
      data: png,
      contentType: 'image/png',
    });

    expect(upload.token).toBe('upl_1');
    const [request] = fake.requests;
    expect(request?.query.get('filename')).toBe('evidence 1.png');
    expect(request?.headers['content-type']).toBe('image/png');
    expect(request?.headers.authorization).toBe('Bearer token-1');
    expect(request?.body.equals(png)).toBe(true);
  });

  it('defaults to application/binary and passes an existing token', async () => {
    fake.on('POST', '/api/v2/uploads.json', { status: 201, json: { upload: { token: 'upl_1' } } });
    const { client } = clientFor(fake);
    await client.uploads.create({ filename: 'b.bin', data: new Uint8Array([1]), token: 'upl_1' });
    expect(fake.requests[0]?.headers['content-type']).toBe('application/binary');
    expect(fake.requests[0]?.query.get('token')).toBe('upl_1');
  });
});
