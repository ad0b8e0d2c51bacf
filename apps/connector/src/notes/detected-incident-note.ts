import type { TDetailedIncident } from '@incident-desk/incident-api';
import { cutToLength, defang } from '@incident-desk/threat-text';
import { capNoteBody, notePlain, noteText } from './note-limits';
import type { NoteTexts } from './texts';
import { displayThreat } from './threat-display';

/** Subject tag of tickets the connector opens for incidents detected without a ticket. */
const DETECTED_SUBJECT_TAG = '[incident-desk]';

const SUBJECT_THREAT_MAX = 200;

export function detectedTicketSubject(status: string | undefined, threat: string): string {
  const shown = cutToLength(threat, SUBJECT_THREAT_MAX);
  return `${DETECTED_SUBJECT_TAG} ${status ? notePlain(status) : 'unknown status'} - ${shown.replace(/\s+/g, ' ')}`;
}

// Every free-text value of the detail may quote the threat (a registrar or page title naming a
// host), so each is defanged, not only the threat fields.
function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? noteText(value) : undefined;
}

function taxonomyLine(t: NoteTexts, detail: TDetailedIncident): string {
  const d = t.detected;
  const taxonomy = detail.threatTaxonomy;
  const parts = [
    text(taxonomy?.name),
    text(taxonomy?.incidentThreatType?.name),
    text(taxonomy?.incidentTargetType?.name),
  ].filter((part): part is string => part !== undefined);
  const cls = text(detail.incidentClass);
  return d.line(
    d.labels.taxonomy,
    `${parts.length > 0 ? parts.join(' / ') : d.notAvailable}${cls ? d.incidentClass(cls) : ''}`,
  );
}

function registrarLine(t: NoteTexts, detail: TDetailedIncident): string {
  const d = t.detected;
  const name = text(detail.registrar?.name);
  const difficulty = text(detail.registrar?.difficulty);
  if (!name) return d.line(d.labels.registrar, d.notAvailable);
  return d.line(d.labels.registrar, `${name}${difficulty ? d.difficulty(difficulty) : ''}`);
}

function blocklistLines(t: NoteTexts, detail: TDetailedIncident): string[] {
  const d = t.detected;
  const listings = Array.isArray(detail.blocklists) ? detail.blocklists : [];
  if (listings.length === 0) return [d.line(d.labels.blocklists, d.noneSubmitted)];
  return [
    d.line(d.labels.blocklists, '').trimEnd(),
    ...listings.map((listing) => {
      const link = text(listing.link);
      const status =
        listing.status === 'submitted'
          ? d.submittedInProgress
          : (text(listing.status) ?? d.unknown);
      const since = text(listing.listedAt);
      return d.line(
        `- ${text(listing.authority) ?? d.unknownPartner}, ${text(listing.type) ?? d.unknownType}`,
        `${status}${since ? d.since(since) : ''}${link ? ` - ${defang(link)}` : ''}`,
      );
    }),
  ];
}

function insightLines(t: NoteTexts, detail: TDetailedIncident): string[] {
  const d = t.detected;
  const insights = detail.insights;
  if (!insights) return [d.noInsights];
  const lines = [d.insights(text(insights.snapshotTimestamp) ?? null)];
  const whois = insights.whois;
  if (whois) {
    const age =
      typeof whois.domainAgeDays === 'number' ? d.daysOld(whois.domainAgeDays) : d.ageUndetermined;
    const isNew = whois.isNewDomain === true ? d.newlyRegistered : '';
    lines.push(
      d.line(d.labels.whois, `${text(whois.registrar) ?? d.registrarUnknown}, ${age}${isNew}`),
    );
  }
  const certificate = insights.certificate;
  if (certificate) {
    const valid =
      certificate.isValid === true
        ? d.valid
        : certificate.isValid === false
          ? d.invalid
          : d.validityUndetermined;
    lines.push(
      d.line(d.labels.certificate, `${text(certificate.issuer) ?? d.issuerUnknown}, ${valid}`),
    );
  }
  const hosting = insights.hosting;
  if (hosting) {
    const providers = (hosting.providers ?? [])
      .map((provider) => text(provider.organization))
      .filter((name): name is string => name !== undefined);
    const cdn = hosting.cdnDetected === true ? d.behindCdn(text(hosting.cdnName) ?? '') : '';
    lines.push(
      d.line(
        d.labels.hosting,
        `${providers.length > 0 ? providers.join(', ') : d.providersUnknown}${cdn}`,
      ),
    );
  }
  const dns = insights.dns;
  if (dns?.recordTypes && dns.recordTypes.length > 0)
    lines.push(
      d.line(d.labels.dnsRecords, dns.recordTypes.map((type) => notePlain(type)).join(', ')),
    );
  const page = insights.page;
  if (page && text(page.title)) lines.push(d.line(d.labels.pageTitle, text(page.title)!));
  const indicators = insights.indicators;
  if (indicators && text(indicators.finalUrl))
    lines.push(d.line(d.labels.finalUrl, defang(text(indicators.finalUrl)!)));
  if (lines.length === 1) lines.push(d.noCategory);
  return lines;
}

/**
 * First note of a ticket opened for a detected incident, built from GET /v1/incident/{id}. The
 * incident and the event are named in the create's audit metadata, not here.
 */
export function detectedIncidentNote(detail: TDetailedIncident, t: NoteTexts): string {
  const d = t.detected;
  const domain = text(detail.domain);
  return capNoteBody(
    [
      d.intro,
      '',
      d.line(d.labels.threat, displayThreat(detail, t)),
      ...(domain ? [d.line(d.labels.domain, defang(domain))] : []),
      d.line(d.labels.type, text(detail.incidentType) ?? d.notAvailable),
      d.line(d.labels.status, text(detail.status) ?? d.notAvailable),
      taxonomyLine(t, detail),
      registrarLine(t, detail),
      d.line(d.labels.hostingProvider, text(detail.hostingProvider) ?? d.notAvailable),
      ...blocklistLines(t, detail),
      ...insightLines(t, detail),
    ].join('\n'),
  );
}

/** First note when the detail could not be read (e.g. 404): only what the event said. */
export function detectedIncidentFallbackNote(status: string | undefined, t: NoteTexts): string {
  const d = t.detected;
  return [
    d.introWithoutDetail,
    d.detailUnreadable,
    '',
    d.line(d.labels.status, status ? notePlain(status) : d.notAvailable),
  ].join('\n');
}
