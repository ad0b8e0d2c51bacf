import type { TDetailedIncident } from '@incident-desk/incident-api';
import { cutToLength, defang } from '@incident-desk/threat-text';
import { eventNoteFooter } from './event-note-footer';
import { capNoteBody, notePlain, noteText } from './note-limits';
import { displayThreat } from './threat-display';

const NONE = 'not available';

/** Subject tag of tickets the connector opens for incidents detected without a ticket. */
export const DETECTED_SUBJECT_TAG = '[incident-desk]';

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

function taxonomyLine(detail: TDetailedIncident): string {
  const taxonomy = detail.threatTaxonomy;
  const name = text(taxonomy?.name);
  const parts = [
    name,
    text(taxonomy?.incidentThreatType?.name),
    text(taxonomy?.incidentTargetType?.name),
  ].filter((part): part is string => part !== undefined);
  const cls = text(detail.incidentClass);
  return `Taxonomy: ${parts.length > 0 ? parts.join(' / ') : NONE}${cls ? ` (class ${cls})` : ''}`;
}

function registrarLine(detail: TDetailedIncident): string {
  const name = text(detail.registrar?.name);
  const difficulty = text(detail.registrar?.difficulty);
  if (!name) return `Registrar: ${NONE}`;
  return `Registrar: ${name}${difficulty ? ` (takedown difficulty ${difficulty})` : ''}`;
}

function blocklistLines(detail: TDetailedIncident): string[] {
  const listings = Array.isArray(detail.blocklists) ? detail.blocklists : [];
  if (listings.length === 0) return ['Blocklist listings: none submitted'];
  return [
    'Blocklist listings:',
    ...listings.map((listing) => {
      const link = text(listing.link);
      const status =
        listing.status === 'submitted'
          ? 'submitted (protection in progress)'
          : (text(listing.status) ?? 'unknown');
      return `- ${text(listing.authority) ?? 'unknown partner'}, ${text(listing.type) ?? 'unknown type'}: ${status}${
        text(listing.listedAt) ? ` since ${text(listing.listedAt)}` : ''
      }${link ? ` - ${defang(link)}` : ''}`;
    }),
  ];
}

function insightLines(detail: TDetailedIncident): string[] {
  const insights = detail.insights;
  if (!insights) return ['Insights: none captured yet'];
  const lines = [`Insights (snapshot ${text(insights.snapshotTimestamp) ?? 'time unknown'}):`];
  const whois = insights.whois;
  if (whois) {
    const age =
      typeof whois.domainAgeDays === 'number'
        ? `${whois.domainAgeDays} days old`
        : 'age undetermined';
    const isNew = whois.isNewDomain === true ? ', newly registered' : '';
    lines.push(`- WHOIS: ${text(whois.registrar) ?? 'registrar unknown'}, ${age}${isNew}`);
  }
  const certificate = insights.certificate;
  if (certificate) {
    const valid =
      certificate.isValid === true
        ? 'valid'
        : certificate.isValid === false
          ? 'invalid'
          : 'validity undetermined';
    lines.push(`- Certificate: ${text(certificate.issuer) ?? 'issuer unknown'}, ${valid}`);
  }
  const hosting = insights.hosting;
  if (hosting) {
    const providers = (hosting.providers ?? [])
      .map((provider) => text(provider.organization))
      .filter((name): name is string => name !== undefined);
    const cdn =
      hosting.cdnDetected === true ? `, behind CDN ${text(hosting.cdnName) ?? ''}`.trimEnd() : '';
    lines.push(
      `- Hosting: ${providers.length > 0 ? providers.join(', ') : 'providers unknown'}${cdn}`,
    );
  }
  const dns = insights.dns;
  if (dns?.recordTypes && dns.recordTypes.length > 0)
    lines.push(`- DNS records: ${dns.recordTypes.map((type) => notePlain(type)).join(', ')}`);
  const page = insights.page;
  if (page && text(page.title)) lines.push(`- Page title: ${text(page.title)}`);
  const indicators = insights.indicators;
  if (indicators && text(indicators.finalUrl))
    lines.push(`- Final URL: ${defang(text(indicators.finalUrl)!)}`);
  if (lines.length === 1) lines.push('- no category captured');
  return lines;
}

/** First note of a ticket opened for a detected incident, built from GET /v1/incident/{id}. */
export function detectedIncidentNote(detail: TDetailedIncident, eventRef: string): string {
  const domain = text(detail.domain);
  const body = [
    'The incident service detected an incident that no ticket was tracking; this ticket follows it.',
    '',
    `Threat: ${displayThreat(detail)}`,
    ...(domain ? [`Domain: ${defang(domain)}`] : []),
    `Type: ${text(detail.incidentType) ?? NONE}`,
    `Status: ${text(detail.status) ?? NONE}`,
    taxonomyLine(detail),
    registrarLine(detail),
    `Hosting provider: ${text(detail.hostingProvider) ?? NONE}`,
    ...blocklistLines(detail),
    ...insightLines(detail),
  ].join('\n');
  return [capNoteBody(body), '', eventNoteFooter(detail.id, eventRef)].join('\n');
}

/** First note when the detail could not be read (e.g. 404): only what the event said. */
export function detectedIncidentFallbackNote(
  incidentId: string,
  status: string | undefined,
  eventRef: string,
): string {
  return [
    'The incident service reported an incident that no ticket was tracking; this ticket follows it.',
    'Its details could not be read; open the incident in the dashboard.',
    '',
    `Status: ${status ? notePlain(status) : NONE}`,
    '',
    eventNoteFooter(incidentId, eventRef),
  ].join('\n');
}
