// Ticket attachments as evidence, end to end through both sandboxes: the reported ticket's files, end users' files, exact
// sizes, the echo of the connector's own uploads, and downloads that must never reach an
// internal host.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { maxAttachFileBytes } from '@incident-desk/incident-api';
import { DEMO_PARENT_CLIENT_ID } from '@incident-desk/incident-sandbox';
import { ZendeskClient } from '@incident-desk/zendesk-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountContext } from '../src/accounts/account-context';
import type { IncidentEventJob } from '../src/jobs/incident-event-job';
import { handleIncidentEvent } from './support/run-incident-event';
import { handleTicketEvent } from '../src/sync/ticket-events';
import { EVIDENCE_PENDING } from '../src/sync/ticket-events/reported-evidence';
import { backends } from './support/test-database';
import { startTicketSyncHarness, SYNC_ACCOUNT } from './support/sync-ticket-harness';
import { startedForTests } from './support/started-for-tests';

const png = { file_name: 'screenshot.png', content_type: 'image/png', content: 'png-bytes' };
const exe = { file_name: 'dropper.exe', content_type: 'application/x-msdownload', content: 'MZ' };

async function recorder() {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end('internal secret');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(backends)('ticket attachments as evidence on %s', (backend) => {
  const h = startedForTests(() => startTicketSyncHarness(backend));
  let counter = 0;
  const tag = backend === 'pglite' ? 'a' : 'b';

  const report = async (ticketId: number) =>
    handleTicketEvent({ db: h.db }, h.ctx, h.job({ kind: 'report', ticketId, mode: 'takedown' }));
  const forward = (ticketId: number, ctx: AccountContext = h.ctx) =>
    handleTicketEvent({ db: h.db }, ctx, h.job({ kind: 'comment', ticketId }));
  const incidentOf = async (incidentId: string) =>
    (await h.incidents()).find((i) => i.id === incidentId)!;
  const linkOf = (ticketId: number) =>
    h.db.prisma.incidentLink.findUniqueOrThrow({
      where: { accountId_ticketId: { accountId: SYNC_ACCOUNT, ticketId: BigInt(ticketId) } },
    });

  async function reportedTicket(attachments?: (typeof png)[]) {
    counter += 1;
    const ticketId = await h.createTicket({
      threat: `https://e${counter}-${tag}.evidence-phish.test/`,
      ...(attachments ? { attachments } : {}),
    });
    expect((await report(ticketId)).status).toBe('applied');
    return { ticketId, incidentId: (await linkOf(ticketId)).incidentId };
  }

  /** Gives a comment's file this content in the Zendesk sandbox (large files without JSON). */
  function setFileContent(fileName: string, data: Buffer) {
    const account = h.zendeskSandbox.state.requireAccount('demo');
    const files = [...account.attachments.values()].filter((a) => a.file_name === fileName);
    files.at(-1)!.data = data;
  }

  it("sends the reported ticket's files after the report and names the skipped one in one note", async () => {
    const { ticketId, incidentId } = await reportedTicket([png, exe]);
    const incident = await incidentOf(incidentId);
    expect(incident.attachments.map((a) => [a.fileName, a.contentType, a.size])).toEqual([
      ['screenshot.png', 'image/png', 9],
    ]);
    const notes = await h.notesContaining(ticketId, 'Not sent to the incident as evidence');
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body).toContain('files on the ticket when it was reported');
    expect(notes[0]!.body).toContain(
      'dropper[.]exe: application/x-msdownload is not a supported evidence type',
    );
    // the report's comment is not forwarded again, nor are its files
    expect((await forward(ticketId)).status).toBe('skipped');
    expect((await incidentOf(incidentId)).attachments).toHaveLength(1);
  });

  it('a report run that stopped before the files leaves them to the next run, never twice', async () => {
    const { ticketId, incidentId } = await reportedTicket([png]);
    expect((await incidentOf(incidentId)).attachments).toHaveLength(1);
    const where = { accountId: SYNC_ACCOUNT, ticketId: BigInt(ticketId) };
    // as if the run had stopped after marking the reported comments
    await h.db.prisma.forwardedComment.updateMany({ where, data: { detail: EVIDENCE_PENDING } });
    await forward(ticketId);
    expect((await incidentOf(incidentId)).attachments).toHaveLength(2);
    await forward(ticketId);
    expect((await incidentOf(incidentId)).attachments).toHaveLength(2);
  });

  it("sends an end user's files from a reply after the report, not their words", async () => {
    const { ticketId, incidentId } = await reportedTicket();
    await h.addComment(ticketId, {
      authorId: h.demo.endUserId,
      body: 'Here is what I received.',
      public: true,
      attachments: [png, exe],
    });
    expect((await forward(ticketId)).status).toBe('applied');
    const incident = await incidentOf(incidentId);
    expect(incident.attachments.map((a) => a.fileName)).toEqual(['screenshot.png']);
    expect(incident.comments.map((c) => c.comment)).not.toContain('Here is what I received.');
    const notes = await h.notesContaining(ticketId, 'Not sent to the incident as evidence');
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body).toContain('dropper[.]exe: application/x-msdownload');
  });

  it('uploads a 49,990,000-byte file: it fits the 50,000,000-byte request', async () => {
    const { ticketId, incidentId } = await reportedTicket();
    await h.addComment(ticketId, {
      authorId: h.demo.agentIds[1]!,
      body: 'Full capture attached.',
      public: true,
      attachments: [{ file_name: 'capture.pdf', content_type: 'application/pdf', content: 'x' }],
    });
    setFileContent('capture.pdf', Buffer.alloc(49_990_000, 1));
    expect((await forward(ticketId)).status).toBe('applied');
    expect((await incidentOf(incidentId)).attachments).toEqual([
      { fileName: 'capture.pdf', contentType: 'application/pdf', size: 49_990_000 },
    ]);
    expect(await h.notesContaining(ticketId, 'Not sent')).toEqual([]);
  });

  it('the history echo of its own upload writes no note; a later upload by someone else does', async () => {
    const { ticketId, incidentId } = await reportedTicket();
    await h.addComment(ticketId, {
      authorId: h.demo.agentIds[1]!,
      body: 'Screenshot.',
      public: true,
      attachments: [png],
    });
    await forward(ticketId);
    const history = (await h.ctx.incidents().incidents.retrieve(incidentId)).history;
    const echo = history.find((entry) => /attachment/.test(entry.message ?? ''))!.message!;
    expect(echo).toBe('1 attachment added');
    const job = (id: string): IncidentEventJob => ({
      accountId: SYNC_ACCOUNT,
      receivedAt: new Date().toISOString(),
      event: {
        id,
        event: 'incident.history_created',
        timestamp: new Date().toISOString(),
        clientId: DEMO_PARENT_CLIENT_ID,
        data: { incidentId, historyEntry: { message: echo } },
      },
    });
    const deps = { db: h.db, unlinkedWaitMs: 0 };
    expect(await handleIncidentEvent(deps, h.ctx, job(`evt_own_${tag}`))).toEqual({
      status: 'skipped',
      reason: 'history entry echoes evidence the connector uploaded',
    });
    // the same event again (a redelivery) is still recognised
    expect((await handleIncidentEvent(deps, h.ctx, job(`evt_own_${tag}`))).status).toBe('skipped');
    // an analyst's upload says the same, but the connector sent only one
    expect((await handleIncidentEvent(deps, h.ctx, job(`evt_other_${tag}`))).status).toBe(
      'applied',
    );
    expect(await h.notesContaining(ticketId, '1 attachment added')).toHaveLength(1);
    expect(await h.notesContaining(ticketId, 'attachment(s)')).toEqual([]);
  });

  describe('downloads that must not reach an internal host', () => {
    let internal: Awaited<ReturnType<typeof recorder>>;
    beforeAll(async () => {
      internal = await recorder();
    });
    afterAll(() => internal?.close());

    /** A Zendesk whose comments name hostile content addresses, as a forged response would. */
    let endlessChunks = 0;

    function hostileContext(): AccountContext {
      const base = `${h.zendeskUrl}/_z/demo`;
      const token = h.zendeskSandbox.issueToken('demo', h.connectorUserId, ['read', 'write']);
      const hostile: Record<string, string> = {
        'loopback.png': `${internal.url}/secret`,
        'private.png': 'https://10.0.0.7/attachments/token/x/',
        'metadata.png': 'http://169.254.169.254/latest/meta-data/',
        'elsewhere.png': 'https://files.evil.example/x.png',
        'redirect.png': `${base}/attachments/token/redirect-to-internal/`,
        'endless.png': `${base}/attachments/token/endless/`,
      };
      const zendesk = new ZendeskClient({
        baseUrl: base,
        tokenProvider: {
          getAccessToken: async () => token,
          refreshAfterUnauthorized: async () => token,
        },
        retry: false,
        fetch: async (input, init) => {
          const url = new URL(input instanceof Request ? input.url : String(input));
          if (url.pathname.endsWith('/endless/')) {
            // no Content-Length, and more than any upload holds: 1 MB at a time, 60 at most
            const chunk = new Uint8Array(1_000_000);
            return new Response(
              new ReadableStream<Uint8Array>({
                pull(controller) {
                  endlessChunks += 1;
                  if (endlessChunks > 60) controller.close();
                  else controller.enqueue(chunk);
                },
              }),
            );
          }
          if (url.pathname.endsWith('/redirect-to-internal/')) {
            return new Response(null, {
              status: 302,
              headers: { location: `${internal.url}/secret` },
            });
          }
          const response = await fetch(input, init);
          if (!/\/comments(\.json)?$/.test(url.pathname)) return response;
          const body = (await response.json()) as {
            comments: { attachments: { file_name: string; content_url: string }[] }[];
          };
          for (const comment of body.comments)
            for (const file of comment.attachments)
              file.content_url = hostile[file.file_name] ?? file.content_url;
          return Response.json(body, { status: response.status });
        },
      });
      return { ...h.ctx, zendesk };
    }

    it('refuses each one, fetches nothing internal and says why in its own words', async () => {
      const { ticketId, incidentId } = await reportedTicket();
      const names = [
        'loopback.png',
        'private.png',
        'metadata.png',
        'elsewhere.png',
        'redirect.png',
        'endless.png',
      ];
      await h.addComment(ticketId, {
        authorId: h.demo.agentIds[1]!,
        body: 'Files.',
        public: true,
        attachments: names.map((file_name) => ({ ...png, file_name })),
      });
      expect((await forward(ticketId, hostileContext())).status).toBe('applied');
      expect(internal.hits).toEqual([]);
      expect((await incidentOf(incidentId)).attachments).toEqual([]);
      const [note] = await h.notesContaining(ticketId, 'Not sent to the incident as evidence');
      const lines = note!.body.split('\n');
      const line = (name: string) =>
        lines.find((l) => l.startsWith(`- ${name.replace('.', '[.]')}:`));
      const notAllowed =
        "its download address is neither this account's Zendesk nor one of Zendesk's attachment hosts, so it was not fetched";
      expect(line('loopback.png')).toContain(notAllowed);
      expect(line('private.png')).toContain(notAllowed);
      expect(line('metadata.png')).toContain(notAllowed);
      expect(line('elsewhere.png')).toContain(notAllowed);
      expect(line('redirect.png')).toContain(notAllowed);
      // capped while streaming: stopped just past the room one upload leaves
      const room = await maxAttachFileBytes('endless.png', 'image/png');
      expect(line('endless.png')).toBe(
        `- endless[.]png: too large: more than the ${room.toLocaleString('en-US')} bytes one upload ` +
          `holds (the incident service takes 50,000,000 bytes per request, the file's name and type included)`,
      );
      expect(endlessChunks).toBeLessThanOrEqual(Math.ceil(room / 1_000_000) + 2);
      // our words only: no address, no error text
      expect(note!.body).not.toMatch(/127\.0\.0\.1|10\.0\.0\.7|169\.254|evil|refused|Error/);
    });
  });
});
