import { maxAttachFileBytes } from '@incident-desk/incident-api';
import { beforeEach, describe, expect, it } from 'vitest';
import { checkEvidence } from '../src/sync/ticket-events/evidence-files';
import { noteTexts } from '../src/notes/texts';
import { handleTicketEvent } from '../src/sync/ticket-events';
import { normalizeText } from '../src/notes/normalize';
import { updateTicket } from '../src/sync/ticket-writer';
import { backends } from './support/test-database';
import { startTicketSyncHarness, SYNC_ACCOUNT } from './support/sync-ticket-harness';
import { startedForTests } from './support/started-for-tests';

describe.each(backends)('ticket -> incident comments on %s', (backend) => {
  const h = startedForTests(() => startTicketSyncHarness(backend));
  let counter = 0;
  const tag = backend === 'pglite' ? 'a' : 'b';
  const agent = () => h.demo.agentIds[1]!;

  beforeEach(() => {
    h.settings.forwardInternalNotes = false;
  });

  /** A ticket reported and linked through the real report flow. */
  async function linkedTicket() {
    counter += 1;
    const ticketId = await h.createTicket({
      threat: `https://c${counter}-${tag}.comment-phish.test/`,
    });
    expect(
      (
        await handleTicketEvent(
          { db: h.db },
          h.ctx,
          h.job({ kind: 'report', ticketId, mode: 'takedown' }),
        )
      ).status,
    ).toBe('applied');
    const link = await h.db.prisma.incidentLink.findUniqueOrThrow({
      where: { accountId_ticketId: { accountId: SYNC_ACCOUNT, ticketId: BigInt(ticketId) } },
    });
    return { ticketId, incidentId: link.incidentId };
  }

  const forward = (ticketId: number) =>
    handleTicketEvent({ db: h.db }, h.ctx, h.job({ kind: 'comment', ticketId }));

  async function incidentComments(incidentId: string) {
    const incident = (await h.incidents()).find((i) => i.id === incidentId)!;
    return incident.comments.slice(1); // the first is the report's own comment
  }

  const recordOf = (commentId: number) =>
    h.db.prisma.forwardedComment.findUniqueOrThrow({
      where: { accountId_commentId: { accountId: SYNC_ACCOUNT, commentId: BigInt(commentId) } },
    });

  it('forwards a public agent reply verbatim (only non-breaking spaces made ordinary), as the agent, once', async () => {
    const { ticketId, incidentId } = await linkedTicket();
    const commentId = await h.addComment(ticketId, {
      authorId: agent(),
      body: 'a:  two\n  indented line\nPlease check the\u00a0login page\u202fagain.',
      public: true,
    });
    const outcome = await forward(ticketId);
    expect(outcome).toMatchObject({ status: 'applied', detail: 'forwarded 1 comment' });
    const sent = await incidentComments(incidentId);
    expect(sent).toEqual([
      expect.objectContaining({
        comment: 'a:  two\n  indented line\nPlease check the login page again.',
        author: 'bea@demo.example',
      }),
    ]);
    expect((await recordOf(commentId)).status).toBe('forwarded');
    // echo comparison keeps the normal form
    const posted = await h.db.prisma.echoLedgerEntry.findMany({
      where: { kind: 'incident_comment', target: incidentId },
    });
    expect(posted.map((p) => p.text)).toEqual([
      'a: two\nindented line\nPlease check the login page again.',
    ]);

    // the same comment event again (and any later one) never forwards it twice
    expect((await forward(ticketId)).status).toBe('skipped');
    expect(await incidentComments(incidentId)).toHaveLength(1);
  });

  it('never forwards the report comment, the connector’s notes or end users’ comments', async () => {
    const { ticketId, incidentId } = await linkedTicket();
    await h.addComment(ticketId, { authorId: h.demo.endUserId, body: 'Any news?', public: true });
    await updateTicket(
      h.ctx,
      h.db,
      ticketId,
      { note: 'Status changed to case_building.' },
      { priority: false },
    );
    // the connector's Zendesk user is also an agent: its own replies are forwarded, its notes not
    const ownReply = await h.addComment(ticketId, {
      authorId: h.connectorUserId,
      body: 'I am on it.',
      public: true,
    });
    // a note that lost its marker is still recognised by its recorded text
    await h.db.prisma.echoLedgerEntry.create({
      data: {
        accountId: SYNC_ACCOUNT,
        kind: 'ticket_note',
        target: String(ticketId),
        text: normalizeText('Takedown requested for the incident.'),
      },
    });
    const unmarked = await h.addComment(ticketId, {
      authorId: h.connectorUserId,
      body: 'Takedown\u00a0 requested for the incident.',
      public: false,
    });
    h.settings.forwardInternalNotes = true;

    expect((await forward(ticketId)).status).toBe('applied');
    const sent = await incidentComments(incidentId);
    expect(sent).toEqual([
      expect.objectContaining({ comment: 'I am on it.', author: 'alex@demo.example' }),
    ]);
    expect((await recordOf(ownReply)).status).toBe('forwarded');
    expect(await recordOf(unmarked)).toMatchObject({
      status: 'skipped',
      detail: 'the connector’s own note',
    });
    const skipped = await h.db.prisma.forwardedComment.findMany({
      where: { ticketId: BigInt(ticketId), status: 'skipped' },
      orderBy: { commentId: 'asc' },
    });
    expect(skipped.map((s) => s.detail)).toEqual([
      'predates the report',
      'the connector’s own note', // the report's linked note
      'not written by an agent',
      'the connector’s own note',
      'the connector’s own note',
    ]);
  });

  it('forwards internal notes only when the account opts in', async () => {
    const { ticketId, incidentId } = await linkedTicket();
    const hidden = await h.addComment(ticketId, {
      authorId: agent(),
      body: 'Internal: registrar is slow.',
      public: false,
    });
    expect((await forward(ticketId)).status).toBe('skipped');
    expect((await recordOf(hidden)).status).toBe('skipped');
    expect(await incidentComments(incidentId)).toHaveLength(0);

    h.settings.forwardInternalNotes = true;
    const shared = await h.addComment(ticketId, {
      authorId: agent(),
      body: 'Internal: customer confirmed.',
      public: false,
    });
    expect((await forward(ticketId)).status).toBe('applied');
    expect((await incidentComments(incidentId)).map((c) => c.comment)).toEqual([
      'Internal: customer confirmed.',
    ]);
    expect((await recordOf(shared)).status).toBe('forwarded');
  });

  it('uploads supported attachments as evidence and names each skipped file in one note', async () => {
    const { ticketId, incidentId } = await linkedTicket();
    const commentId = await h.addComment(ticketId, {
      authorId: agent(),
      body: 'Screenshots attached.',
      public: true,
      attachments: [
        { file_name: 'screenshot.png', content_type: 'image/png', content: 'png-bytes' },
        {
          file_name: 'headers.eml',
          content_type: 'application/octet-stream',
          content: 'Received: from x',
        },
        { file_name: 'dropper.exe', content_type: 'application/x-msdownload', content: 'MZ' },
      ],
    });
    expect((await forward(ticketId)).status).toBe('applied');
    const incident = (await h.incidents()).find((i) => i.id === incidentId)!;
    expect(incident.attachments.map((a) => [a.fileName, a.contentType, a.size])).toEqual([
      ['screenshot.png', 'image/png', 9],
      ['headers.eml', 'message/rfc822', 16],
    ]);
    const notes = await h.notesContaining(ticketId, 'Not sent to the incident as evidence');
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body).toContain(
      'dropper[.]exe: application/x-msdownload is not a supported evidence type',
    );
    expect(notes[0]!.body).not.toContain('screenshot');
    expect((await recordOf(commentId)).detail).toContain('dropper[.]exe');
    // the note the connector just wrote is not forwarded back
    expect((await forward(ticketId)).status).toBe('skipped');
    expect(await incidentComments(incidentId)).toHaveLength(1);
  });

  it('retries a comment the service could not take (503) and forwards it exactly once', async () => {
    const { ticketId, incidentId } = await linkedTicket();
    const commentId = await h.addComment(ticketId, {
      authorId: agent(),
      body: 'Second attempt please.',
      public: true,
    });
    await h.incidentFault({
      method: 'POST',
      path: '/v1/incident/:id/comment',
      kind: 'status',
      status: 503,
      times: 1,
    });
    await expect(forward(ticketId)).rejects.toThrow();
    await expect(recordOf(commentId)).rejects.toThrow(); // claim released
    expect((await forward(ticketId)).status).toBe('applied');
    expect((await incidentComments(incidentId)).map((c) => c.comment)).toEqual([
      'Second attempt please.',
    ]);
  });

  it('never resends a comment whose post may have reached the incident; notes it instead', async () => {
    const { ticketId, incidentId } = await linkedTicket();
    const commentId = await h.addComment(ticketId, {
      authorId: agent(),
      body: 'Lost in transit.',
      public: true,
    });
    await h.incidentFault({
      method: 'POST',
      path: '/v1/incident/:id/comment',
      kind: 'drop',
      times: 1,
    });
    expect((await forward(ticketId)).status).toBe('applied');
    expect((await recordOf(commentId)).status).toBe('failed');
    expect(await h.notesContaining(ticketId, `comment ${commentId}: outcome unknown`)).toHaveLength(
      1,
    );
    expect((await forward(ticketId)).status).toBe('skipped');
    expect(await incidentComments(incidentId)).toHaveLength(0);
  });

  it('skips a ticket with no linked incident', async () => {
    const ticketId = await h.createTicket({ threat: `https://nolink-${tag}.test/`, tags: [] });
    await h.addComment(ticketId, { authorId: agent(), body: 'Hello', public: true });
    expect(await forward(ticketId)).toEqual({
      status: 'skipped',
      reason: 'ticket not linked to an incident',
    });
  });
});

describe('evidence files', () => {
  const file = (file_name: string, content_type: string | null, size: number) => ({
    id: 1,
    file_name,
    content_url: 'https://acme.zendesk.com/attachments/token/x/?name=x',
    content_type,
    size,
  });

  it('accepts supported types, by type or by extension, with the exact room one upload leaves', async () => {
    expect(await checkEvidence(file('a.pdf', 'application/pdf', 10))).toEqual({
      ok: true,
      contentType: 'application/pdf',
      maxBytes: await maxAttachFileBytes('a.pdf', 'application/pdf'),
    });
    expect(await checkEvidence(file('shot.JPG', 'application/octet-stream', 10))).toMatchObject({
      ok: true,
      contentType: 'image/jpeg',
    });
  });

  it('states sizes exactly: 49,990,000 bytes fit, one byte over the room does not', async () => {
    expect(await checkEvidence(file('big.png', 'image/png', 49_990_000))).toMatchObject({
      ok: true,
    });
    const room = await maxAttachFileBytes('big.png', 'image/png');
    expect(await checkEvidence(file('big.png', 'image/png', room))).toMatchObject({ ok: true });
    const over = await checkEvidence(file('big.png', 'image/png', room + 1));
    expect(over).toEqual({
      ok: false,
      reason: { kind: 'too_large', size: room + 1, maxBytes: room, requestMaxBytes: 50_000_000 },
    });
    if (over.ok) throw new Error('the file passed');
    const reason = over.reason;
    expect(noteTexts('en').evidence.skip(reason)).toBe(
      `too large: ${(room + 1).toLocaleString('en-US')} bytes, over the ` +
        `${room.toLocaleString('en-US')} bytes one upload holds (the incident service takes ` +
        `50,000,000 bytes per request, the file's name and type included)`,
    );
    expect(noteTexts('fr').evidence.skip(reason)).toBe(
      `trop volumineux\u202f: ${(room + 1).toLocaleString('fr-FR')} octets, au-delà des ` +
        `${room.toLocaleString('fr-FR')} octets qu'un envoi peut contenir (le service d'incidents ` +
        `accepte 50\u202f000\u202f000 octets par requête, nom et type du fichier compris)`,
    );
  });

  it('skips unsupported files with the reason', async () => {
    expect(await checkEvidence(file('run.sh', 'application/x-sh', 10))).toMatchObject({
      ok: false,
    });
    const unknown = await checkEvidence(file('blob', null, 10));
    expect(unknown).toEqual({ ok: false, reason: { kind: 'unsupported_type', type: null } });
    if (unknown.ok) throw new Error('the file passed');
    expect(noteTexts('en').evidence.skip(unknown.reason)).toBe(
      'unknown type is not a supported evidence type',
    );
  });
});
