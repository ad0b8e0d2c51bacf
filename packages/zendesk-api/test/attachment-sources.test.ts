// Attachment downloads reach only the account's origin and Zendesk's attachment
// hosts, never loopback or private addresses (directly, by DNS or through a redirect), and an
// API call never follows a redirect with the bearer token.
import type { LookupAddress } from 'node:dns';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  isPublicAddress,
  ZENDESK_ATTACHMENT_HOSTS,
  ZendeskAttachmentRefusedError,
  ZendeskRedirectError,
  type AttachmentHostResolver,
} from '../src';
import { checkedLookup } from '../src/core/attachment-sources';
import { clientFor } from './support/client-fixture';
import { FakeZendesk } from './support/fake-zendesk';

let fake: FakeZendesk;
let internal: FakeZendesk;
beforeEach(async () => {
  fake = await FakeZendesk.start();
  internal = await FakeZendesk.start();
  internal.on('GET', '/secret', { body: 'internal secret' });
});
afterEach(async () => {
  expect(fake.unexpected).toEqual([]);
  expect(internal.unexpected).toEqual([]);
  await fake.close();
  await internal.close();
});

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

const resolverOf =
  (addresses: Record<string, string[]>): AttachmentHostResolver =>
  async (hostname) =>
    (addresses[hostname] ?? []).map((address): LookupAddress => ({
      address,
      family: address.includes(':') ? 6 : 4,
    }));

describe('attachment sources', () => {
  it("allows Zendesk's own hosts by default", () => {
    expect(ZENDESK_ATTACHMENT_HOSTS).toEqual(['*.zendesk.com', '*.zdusercontent.com']);
  });

  it('refuses a loopback host on another port than the account origin, without connecting', async () => {
    const { client, tokens } = clientFor(fake);
    const error = await refusal(
      client.attachments.download(`${internal.url}/secret`, { maxBytes: 1024 }),
    );
    expect(error).toBeInstanceOf(ZendeskAttachmentRefusedError);
    expect(error).toMatchObject({ reason: 'host_not_allowed', host: new URL(internal.url).host });
    expect(internal.requests).toEqual([]);
    expect(tokens.getAccessToken).not.toHaveBeenCalled();
  });

  it.each([
    'https://10.0.0.7/attachments/x',
    'https://127.0.0.1/x',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::1]/x',
    'https://[::ffff:127.0.0.1]/x',
    'https://[fd00::1]/x',
  ])('refuses the address literal %s', async (url) => {
    const { client } = clientFor(fake);
    const error = await refusal(client.attachments.download(url, { maxBytes: 1024 }));
    expect(error).toMatchObject({
      name: 'ZendeskAttachmentRefusedError',
      reason: 'host_not_allowed',
    });
  });

  it('refuses a private address literal even when an operator lists it as a host name', async () => {
    const { client } = clientFor(fake, { attachmentSources: { hosts: ['10.0.0.7'] } });
    const error = await refusal(
      client.attachments.download('https://10.0.0.7/x', { maxBytes: 1024 }),
    );
    expect(error).toMatchObject({
      name: 'ZendeskAttachmentRefusedError',
      reason: 'private_address',
    });
  });

  it('refuses a host that is not allowed, and an allowed host over plain http', async () => {
    const { client } = clientFor(fake);
    expect(
      await refusal(client.attachments.download('https://evil.example/x.png', { maxBytes: 10 })),
    ).toMatchObject({
      reason: 'host_not_allowed',
      host: 'evil.example',
    });
    expect(
      await refusal(
        client.attachments.download('https://acme.zendesk.com.evil.example/x', { maxBytes: 10 }),
      ),
    ).toMatchObject({
      reason: 'host_not_allowed',
    });
    expect(
      await refusal(
        client.attachments.download('https://acme.zendesk.com:8443/x', { maxBytes: 10 }),
      ),
    ).toMatchObject({
      reason: 'host_not_allowed',
    });
    expect(
      await refusal(
        client.attachments.download('http://acme.zdusercontent.com/x', { maxBytes: 10 }),
      ),
    ).toMatchObject({
      reason: 'not_https',
    });
  });

  it('refuses an allowed host name that resolves to a loopback or private address, before connecting', async () => {
    const resolve = resolverOf({
      'acme.zdusercontent.com': ['127.0.0.1'],
      'mixed.zdusercontent.com': ['93.184.216.34', '10.1.2.3'],
      'v6.zdusercontent.com': ['fe80::1'],
    });
    const { client } = clientFor(fake, { attachmentSources: { resolve } });
    for (const host of ['acme', 'mixed', 'v6']) {
      const error = await refusal(
        client.attachments.download(`https://${host}.zdusercontent.com/f`, { maxBytes: 10 }),
      );
      expect(error).toBeInstanceOf(ZendeskAttachmentRefusedError);
      expect(error).toMatchObject({ reason: 'private_address', host: `${host}.zdusercontent.com` });
    }
  });

  it('checks the system resolver too: an allowed name for this machine is refused', async () => {
    const { client } = clientFor(fake, { attachmentSources: { hosts: ['localhost'] } });
    const error = await refusal(
      client.attachments.download('https://localhost/x', { maxBytes: 10 }),
    );
    expect(error).toMatchObject({
      name: 'ZendeskAttachmentRefusedError',
      reason: 'private_address',
    });
  });

  it('does not follow a redirect from the account origin to an internal host', async () => {
    fake.on('GET', '/attachments/token/abc/', {
      status: 302,
      headers: { location: `${internal.url}/secret` },
    });
    const { client } = clientFor(fake);
    const error = await refusal(
      client.attachments.download(`${fake.url}/attachments/token/abc/`, { maxBytes: 1024 }),
    );
    expect(error).toMatchObject({
      name: 'ZendeskAttachmentRefusedError',
      reason: 'host_not_allowed',
    });
    expect(internal.requests).toEqual([]);
  });

  it('does not follow a redirect to the metadata address or to a non-http scheme', async () => {
    fake.on('GET', '/a/', {
      status: 307,
      headers: { location: 'https://169.254.169.254/latest/meta-data/' },
    });
    fake.on('GET', '/b/', { status: 302, headers: { location: 'file:///etc/passwd' } });
    fake.on('GET', '/c/', { status: 302 });
    const { client } = clientFor(fake);
    expect(
      await refusal(client.attachments.download(`${fake.url}/a/`, { maxBytes: 10 })),
    ).toMatchObject({ reason: 'host_not_allowed' });
    expect(
      await refusal(client.attachments.download(`${fake.url}/b/`, { maxBytes: 10 })),
    ).toMatchObject({ reason: 'bad_redirect' });
    expect(
      await refusal(client.attachments.download(`${fake.url}/c/`, { maxBytes: 10 })),
    ).toMatchObject({ reason: 'bad_redirect' });
  });

  it('stops after three redirects', async () => {
    fake.on('GET', '/loop/', { status: 302, headers: { location: '/loop/' } });
    const { client } = clientFor(fake);
    const error = await refusal(client.attachments.download(`${fake.url}/loop/`, { maxBytes: 10 }));
    expect(error).toMatchObject({ reason: 'too_many_redirects' });
    expect(fake.requests).toHaveLength(4);
  });

  it('follows a redirect to a listed origin, without the token', async () => {
    fake.on('GET', '/attachments/token/abc/', {
      status: 302,
      headers: { location: `${internal.url}/secret` },
    });
    const { client } = clientFor(fake, { attachmentSources: { hosts: [internal.url] } });
    const file = await client.attachments.download(`${fake.url}/attachments/token/abc/`, {
      maxBytes: 1024,
    });
    expect(file.data.toString()).toBe('internal secret');
    expect(internal.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('rejects a malformed attachment host setting', () => {
    expect(() => clientFor(fake, { attachmentSources: { hosts: ['*'] } })).toThrow(
      /attachment host/,
    );
    expect(() => clientFor(fake, { attachmentSources: { hosts: ['*.com'] } })).toThrow(
      /attachment host/,
    );
    expect(() => clientFor(fake, { attachmentSources: { hosts: ['ftp://x.example'] } })).toThrow(
      /http/,
    );
  });
});

describe('checked lookup', () => {
  const run = (addresses: string[], options: { all?: boolean; family?: number }) =>
    new Promise<{ error: Error | null; address: unknown; family?: number | undefined }>(
      (resolve) => {
        checkedLookup(resolverOf({ 'files.example': addresses }))(
          'files.example',
          options,
          (error, address, family) => resolve({ error, address, family }),
        );
      },
    );

  it('answers with the public addresses it checked, the ones the connection then uses', async () => {
    expect(await run(['93.184.216.34'], {})).toEqual({
      error: null,
      address: '93.184.216.34',
      family: 4,
    });
    const all = await run(['93.184.216.34', '2606:2800:220:1::1'], { all: true });
    expect(all.address).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
    expect((await run(['93.184.216.34', '2606:2800:220:1::1'], { family: 6 })).address).toBe(
      '2606:2800:220:1::1',
    );
  });

  it('refuses when any address is not public, or there is none', async () => {
    expect((await run(['93.184.216.34', '192.168.1.1'], { all: true })).error).toBeInstanceOf(
      ZendeskAttachmentRefusedError,
    );
    expect((await run([], {})).error).toBeInstanceOf(ZendeskAttachmentRefusedError);
  });
});

describe('isPublicAddress', () => {
  it.each([
    ['127.0.0.1', false],
    ['127.8.9.10', false],
    ['10.20.30.40', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['192.168.0.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['::', false],
    ['::1', false],
    ['fe80::1', false],
    ['fc00::1', false],
    ['fd12:3456::1', false],
    ['ff02::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::ffff:10.0.0.1', false],
    ['64:ff9b::10.0.0.1', false],
    ['2002:7f00:1::', false],
    ['not an address', false],
    ['93.184.216.34', true],
    ['172.32.0.1', true],
    ['8.8.8.8', true],
    ['2606:2800:220:1:248:1893:25c8:1946', true],
    ['::ffff:8.8.8.8', true],
  ])('%s public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('API calls and redirects', () => {
  it.each([301, 302, 307, 308])(
    'a %i is an error; the token never reaches the other origin',
    async (status) => {
      fake.on('GET', '/api/v2/tickets/1.json', {
        status,
        headers: { location: `${internal.url}/secret` },
      });
      const { client } = clientFor(fake);
      const error = await refusal(client.tickets.show(1));
      expect(error).toBeInstanceOf(ZendeskRedirectError);
      expect(error).toMatchObject({ status, locationOrigin: internal.url });
      expect((error as Error).message).toContain(`the token stays with ${fake.url}`);
      expect(internal.requests).toEqual([]);
      expect(fake.requests).toHaveLength(1);
    },
  );

  it('a POST answered 307 is not resent anywhere', async () => {
    fake.on('POST', '/api/v2/uploads.json', {
      status: 307,
      headers: { location: `${internal.url}/secret` },
    });
    const { client } = clientFor(fake);
    const error = await refusal(
      client.uploads.create({
        filename: 'a.txt',
        data: Buffer.from('x'),
        contentType: 'text/plain',
      }),
    );
    expect(error).toBeInstanceOf(ZendeskRedirectError);
    expect(internal.requests).toEqual([]);
  });
});
