import type { ReactNode } from 'react';
import { SM } from '@zendeskgarden/react-typography';
import type { TIncidentInsights } from '../api/incidentTypes';
import type { I18nValue } from '../contexts/i18nContext';
import { useI18n } from '../hooks/useI18n';
import { DateTime } from './DateTime';
import { DefangedText } from './DefangedText';
import {
  breakable,
  count,
  day,
  defanged,
  ifSent,
  joined,
  prose,
  textList,
  yesNo,
} from './fieldValues';
import { Breakable, type FieldItem, Fields, Muted, Section, Stack } from './layout';

/** The insight categories, in the order the sidebar shows them. */
const PARTS = ['dns', 'whois', 'certificate', 'hosting', 'page', 'indicators'] as const;
type Part = (typeof PARTS)[number];

type Translate = I18nValue['t'];

/** The rows of each category; a row whose value the service did not send is left out. */
const PART_FIELDS: {
  [K in Part]: (part: NonNullable<TIncidentInsights[K]>, t: Translate) => FieldItem[];
} = {
  dns: (dns, t) => [
    { label: t('insights.dns.recordTypes'), value: textList(dns.recordTypes) },
    {
      label: t('insights.dns.recordCounts'),
      value: dns.recordCounts
        ? Object.entries(dns.recordCounts)
            .map(([type, n]) => `${type}: ${n}`)
            .join(', ') || null
        : null,
    },
  ],
  whois: (whois, t) => [
    { label: t('insights.whois.domain'), value: defanged(whois.domain) },
    { label: t('insights.whois.registrar'), value: prose(whois.registrar) },
    { label: t('insights.whois.registrarIANAId'), value: whois.registrarIANAId },
    { label: t('insights.whois.created'), value: day(whois.createdDate) },
    { label: t('insights.whois.updated'), value: day(whois.updatedDate) },
    { label: t('insights.whois.expiry'), value: day(whois.expiryDate) },
    {
      label: t('insights.whois.domainAgeDays'),
      value: count(whois.domainAgeDays, t('common.undetermined')),
    },
    { label: t('insights.whois.isNewDomain'), value: yesNo(whois.isNewDomain) },
    { label: t('insights.whois.isExpired'), value: yesNo(whois.isExpired) },
    { label: t('insights.whois.statuses'), value: textList(whois.statuses) },
  ],
  certificate: (certificate, t) => [
    { label: t('insights.certificate.issuer'), value: prose(certificate.issuer) },
    { label: t('insights.certificate.subject'), value: defanged(certificate.subject) },
    { label: t('insights.certificate.validFrom'), value: day(certificate.validFrom) },
    { label: t('insights.certificate.validTo'), value: day(certificate.validTo) },
    { label: t('insights.certificate.isValid'), value: yesNo(certificate.isValid) },
    {
      label: t('insights.certificate.subjectAltNames'),
      value: textList(certificate.subjectAltNames, true),
    },
  ],
  hosting: (hosting, t) => [
    { label: t('insights.hosting.cdnDetected'), value: yesNo(hosting.cdnDetected) },
    { label: t('insights.hosting.cdnName'), value: breakable(hosting.cdnName) },
    {
      label: t('insights.hosting.providers'),
      value: joined(
        hosting.providers,
        (p) => (
          <>
            {[p.organization, p.network].filter(Boolean).join(' · ')}{' '}
            {p.ip ? <DefangedText value={p.ip} /> : null}
            {p.isCdn ? ` (${t('insights.hosting.cdn')})` : ''}
            {p.abuseEmails && p.abuseEmails.length > 0
              ? ` — ${t('insights.hosting.abuse')} ${p.abuseEmails.join(', ')}`
              : ''}
          </>
        ),
        '; ',
      ),
    },
    {
      label: t('insights.hosting.originHints'),
      value: joined(
        hosting.originHints,
        (o) => (
          <>
            {o.organization ?? ''} {o.ip ? <DefangedText value={o.ip} /> : null}
          </>
        ),
        '; ',
      ),
    },
  ],
  page: (page, t) => [
    { label: t('insights.page.pageTitle'), value: prose(page.title) },
    { label: t('insights.page.metaDescription'), value: breakable(page.metaDescription) },
    {
      label: t('insights.page.headings'),
      value:
        page.headings && page.headings.length > 0 ? breakable(page.headings.join(' | ')) : null,
    },
    { label: t('insights.page.linkCount'), value: ifSent(page.linkCount, String) },
    { label: t('insights.page.formInputCount'), value: ifSent(page.formInputCount, String) },
    { label: t('insights.page.imageCount'), value: ifSent(page.imageCount, String) },
  ],
  indicators: (indicators, t) => [
    { label: t('insights.indicators.requestedUrl'), value: defanged(indicators.requestedUrl) },
    { label: t('insights.indicators.finalUrl'), value: defanged(indicators.finalUrl) },
    {
      label: t('insights.indicators.redirectChain'),
      value: textList(indicators.redirectChain, true),
    },
    { label: t('insights.indicators.ssdeepHash'), value: breakable(indicators.ssdeepHash) },
    { label: t('insights.indicators.pHash'), value: breakable(indicators.pHash) },
    {
      label: t('insights.indicators.captureDuration'),
      value: ifSent(indicators.captureDurationMs, (ms) => t('insights.indicators.ms', { ms })),
    },
    {
      label: t('insights.indicators.scrapeRoute'),
      value: ifSent(indicators.scrapeRoute, (route) => (
        <Breakable>
          {[route.method, route.uaType, route.proxyType, route.country].filter(Boolean).join(' · ')}
          {route.mobileExit ? ` · ${t('insights.indicators.mobileExit')}` : ''}
        </Breakable>
      )),
    },
  ],
};

function Category({
  title,
  children,
  testId,
}: {
  title: string;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Stack data-testid={testId}>
      <SM tag="h3" isBold>
        {title}
      </SM>
      {children}
    </Stack>
  );
}

/** One category of the snapshot's insights, when the service sent it. */
function PartCategory<K extends Part>({ name, part }: { name: K; part: TIncidentInsights[K] }) {
  const { t } = useI18n();
  if (!part) return null;
  return (
    <Category title={t(`insights.${name}.title`)} testId={`insights-${name}`}>
      <Fields items={PART_FIELDS[name](part, t)} />
    </Category>
  );
}

export function Insights({ insights }: { insights: TIncidentInsights | undefined }) {
  const { t } = useI18n();
  return (
    <Section title={t('insights.title')} testId="insights">
      {insights ? (
        <>
          <Muted>
            {t('insights.snapshotTime')}{' '}
            <DateTime value={insights.snapshotTimestamp} unknownKey="common.unknown" />
          </Muted>
          <Muted>{t('insights.absentNote')}</Muted>
          {PARTS.map((name) => (
            <PartCategory key={name} name={name} part={insights[name]} />
          ))}
        </>
      ) : (
        <Muted>{t('insights.none')}</Muted>
      )}
    </Section>
  );
}
