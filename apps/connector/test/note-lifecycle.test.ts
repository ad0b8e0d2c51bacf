// The notes an agent reads over one incident's whole life, end to end against both sandboxes: a
// report, the analyst's moves, an approval from the sidebar, a takedown with blocklist listings and
// two attempts, and the success. The incident sandbox's own webhook events are applied as they come
// (optional fields dropped on some, as the spec warns). Read as an agent would: no event ids, no
// machine ids, every takedown line says what happened, in the account's language.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS } from '@incident-desk/incident-api';
import type { NoteLocale } from '../src/notes/texts';
import { approveTakedown } from '../src/sidebar-api/ticket-actions';
import { handleTicketEvent } from '../src/sync/ticket-events';
import { handleIncidentEvent } from './support/run-incident-event';
import { startHarness, type Harness } from './sync-incident-harness';
import { backends } from './support/test-database';

interface Envelope {
  id: string;
  event: string;
  [key: string]: unknown;
}

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i;
/** A run of hex that stands alone as a word: a list id, a digest, a reference. */
const HEX_ID = /\b[0-9a-f]{8,}\b/i;

const EXPECTED: Record<NoteLocale, { reported: RegExp; lines: string[] }> = {
  en: {
    reported: /^\[incident-desk\] Reported to the incident service for takedown: hxxps/,
    lines: [
      'Status: Case building',
      'Status: Approval required',
      'Status: Takedown ready',
      'Status: Takedown in progress',
      'Takedown attempt 1 sent to the registrar.',
      'Listed on 1 blocklist: Google Safe Browsing.',
      'Submitted to 1 blocklist, protection in progress: Netcraft.',
      'Takedown attempt 2 sent to the registrar.',
      'Status: Taken down',
      'Takedown attempt 2: taken down.',
    ],
  },
  fr: {
    reported: /^\[incident-desk\] Signalé au service d'incidents pour le retrait\u202f: hxxps/,
    lines: [
      'Statut\u202f: Constitution du dossier',
      'Statut\u202f: Approbation requise',
      'Statut\u202f: Retrait prêt',
      'Statut\u202f: Retrait en cours',
      "Tentative de retrait 1 envoyée au bureau d'enregistrement.",
      'Inscrit sur 1 liste de blocage\u202f: Google Safe Browsing.',
      'Soumis à 1 liste de blocage, protection en cours\u202f: Netcraft.',
      "Tentative de retrait 2 envoyée au bureau d'enregistrement.",
      'Statut\u202f: Retiré',
      'Tentative de retrait 2\u202f: retiré.',
    ],
  },
};

describe.each(backends)('the notes of one incident lifecycle (%s)', (backend) => {
  let h: Harness;
  let collector: Server;
  const received: Envelope[] = [];

  beforeAll(async () => {
    h = await startHarness(backend);
    collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Envelope);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const { port } = collector.address() as AddressInfo;
    // the incident sandbox delivers its events for the account's client here, as it would to the connector
    await h
      .context()
      .incidents()
      .webhooks.create({
        url: `http://127.0.0.1:${port}/events`,
        events: WEBHOOK_EVENTS.filter((event) => event !== 'webhook.test'),
        description: 'note lifecycle',
      });
  });
  afterAll(async () => {
    await new Promise((resolve) => collector?.close(resolve));
    await h?.close();
  });

  it.each(['en', 'fr'] as const)('in %s', async (locale) => {
    const ctx = h.context({}, { noteLocale: locale });
    const deps = { db: h.db, unlinkedWaitMs: 10, pollIntervalMs: 10 };
    const applied = new Set<string>();
    /** Every event the incident sandbox delivered since the last call, applied in order. */
    const applyDelivered = async () => {
      await h.incidentSandbox.idle();
      for (const envelope of received.splice(0)) {
        await handleIncidentEvent(deps, ctx, {
          accountId: h.accountId,
          receivedAt: new Date().toISOString(),
          event: envelope,
        });
        applied.add(envelope.id);
      }
    };

    const created = await h.zendesk.tickets.create({
      subject: 'Phishing page',
      comment: { body: 'Someone copies our login page.' },
      custom_fields: [
        { id: h.seed.threatFieldId, value: `https://login-${locale}-${h.uid()}.example.org/` },
      ],
    });
    const ticketId = created.ticket.id;
    const report = await handleTicketEvent({ db: h.db }, ctx, {
      accountId: h.accountId,
      receivedAt: new Date().toISOString(),
      body: { kind: 'report', ticketId, mode: 'takedown' },
    });
    expect(report.status).toBe('applied');
    const { incidentId } = await h.db.prisma.incidentLink.findFirstOrThrow({
      where: { accountId: h.accountId, ticketId: BigInt(ticketId) },
    });
    await applyDelivered();

    const advance = async (status: string) => {
      await h.incidentControl(`/incidents/${incidentId}/advance`, { status });
      await applyDelivered();
    };
    await advance('case_building');
    await advance('approval_required');
    // the agent approves in the sidebar
    const approval = await approveTakedown(
      h.db,
      {
        ctx,
        ticketId,
        agentId: h.seed.agentIds[0],
        agentEmail: 'alex@demo.example',
        agentName: 'Alex Agent',
      },
      await h.ticket(ticketId),
      undefined,
    );
    expect(approval).toMatchObject({ status: 200 });
    await applyDelivered();
    await advance('takedown_in_progress');
    // partners list the site; the service says takedown processing changed
    for (const listing of [
      { authority: 'Google Safe Browsing', type: 'warning-banner', status: 'listed' },
      { authority: 'Netcraft', type: 'blocklist', status: 'submitted' },
    ])
      await h.incidentControl(`/incidents/${incidentId}/blocklists`, listing);
    received.push(h.job('incident.takedown_updated', { incidentId }).event as unknown as Envelope);
    await applyDelivered();
    // a second takedown attempt, then the success
    await h.incidentControl(`/incidents/${incidentId}/takedown-attempts`, {
      startedAt: new Date().toISOString(),
    });
    await applyDelivered();
    await advance('takedown_success');

    const notes = await h.notes(ticketId);
    const text = notes.join('\n');
    expect(notes[0]).toMatch(EXPECTED[locale].reported);
    // what happened, in order, each takedown line saying what
    let from = 0;
    for (const line of EXPECTED[locale].lines) {
      const at = text.indexOf(line, from);
      expect(at, `"${line}" after position ${from} in:\n${text}`).toBeGreaterThanOrEqual(from);
      from = at + line.length;
    }
    expect(text).not.toMatch(/Takedown progress changed|Progression du retrait/);
    // the partners' own history entries, whether their events carried the message or not: no
    // call of the connector's absorbs them (the report's comment included)
    expect(text).toContain('Submitted to Google Safe Browsing');
    expect(text).toContain('Submitted to Netcraft');
    // no event ids, no machine ids
    expect(applied.size).toBeGreaterThanOrEqual(12);
    for (const id of applied) expect(text).not.toContain(id);
    expect(text).not.toContain(incidentId);
    expect(text).not.toMatch(/evt_/);
    expect(text).not.toMatch(UUID);
    expect(text).not.toMatch(HEX_ID);
    expect(text).not.toMatch(/incident-desk · ref|(?:^|\s)ref [0-9a-f]/m);
    // the connector's own words coming back (the report, the approval) are no notes
    expect(text).not.toMatch(
      /Incident reported for|Takedown approved by|incident was updated|incident a été mis à jour/,
    );
    if (locale === 'fr') {
      // French typography: a narrow no-break space before : ; ? ! (a defanged "[:]" and the
      // dashboard's address aside)
      expect(text.replace(/\[:\]|https?:\/\//g, '')).not.toMatch(/[^\u202f][:;?!]/);
      expect(text).not.toMatch(/Status: |Analyst: |Takedown attempt/);
    }
    // each event the connector applied is named by exactly one of the ticket's writes
    const written = (await h.eventWrites(ticketId)).flat();
    expect(written.length).toBe(new Set(written).size);
    for (const id of written) expect(applied.has(id)).toBe(true);
  });
});
