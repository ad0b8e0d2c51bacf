import type { ReactNode } from 'react';
import { SM } from '@zendeskgarden/react-typography';
import type { TIncidentInsights } from '../api/incidentTypes';
import { useI18n } from '../hooks/useI18n';
import { DateTime } from './DateTime';
import { DefangedProse, DefangedText } from './DefangedText';
import { TriState } from './TriState';
import { Breakable, Fields, Muted, Section, Stack } from './layout';

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

const list = (values: string[] | undefined, defanged = false) =>
  values && values.length > 0 ? (
    <Breakable>
      {values.map((v, i) => (
        <span key={i}>
          {i > 0 ? ', ' : ''}
          {defanged ? <DefangedText value={v} /> : v}
        </span>
      ))}
    </Breakable>
  ) : null;

const num = (value: number | null | undefined, undeterminedText: string) =>
  value === undefined ? null : value === null ? undeterminedText : String(value);

export function Insights({ insights }: { insights: TIncidentInsights | undefined }) {
  const { t } = useI18n();
  const undetermined = t('common.undetermined');
  if (!insights) {
    return (
      <Section title={t('insights.title')} testId="insights">
        <Muted>{t('insights.none')}</Muted>
      </Section>
    );
  }
  const { dns, whois, certificate, hosting, page, indicators } = insights;
  return (
    <Section title={t('insights.title')} testId="insights">
      <Muted>
        {t('insights.snapshotTime')}{' '}
        <DateTime value={insights.snapshotTimestamp} unknownKey="common.unknown" />
      </Muted>
      <Muted>{t('insights.absentNote')}</Muted>
      {dns ? (
        <Category title={t('insights.dns.title')} testId="insights-dns">
          <Fields
            items={[
              { label: t('insights.dns.recordTypes'), value: list(dns.recordTypes) },
              {
                label: t('insights.dns.recordCounts'),
                value: dns.recordCounts
                  ? Object.entries(dns.recordCounts)
                      .map(([type, count]) => `${type}: ${count}`)
                      .join(', ') || null
                  : null,
              },
            ]}
          />
        </Category>
      ) : null}
      {whois ? (
        <Category title={t('insights.whois.title')} testId="insights-whois">
          <Fields
            items={[
              {
                label: t('insights.whois.domain'),
                value: whois.domain ? <DefangedText value={whois.domain} /> : null,
              },
              {
                label: t('insights.whois.registrar'),
                value: whois.registrar ? <DefangedProse text={whois.registrar} /> : null,
              },
              { label: t('insights.whois.registrarIANAId'), value: whois.registrarIANAId },
              {
                label: t('insights.whois.created'),
                value:
                  whois.createdDate === undefined ? null : (
                    <DateTime dateOnly value={whois.createdDate} unknownKey="common.undetermined" />
                  ),
              },
              {
                label: t('insights.whois.updated'),
                value:
                  whois.updatedDate === undefined ? null : (
                    <DateTime dateOnly value={whois.updatedDate} unknownKey="common.undetermined" />
                  ),
              },
              {
                label: t('insights.whois.expiry'),
                value:
                  whois.expiryDate === undefined ? null : (
                    <DateTime dateOnly value={whois.expiryDate} unknownKey="common.undetermined" />
                  ),
              },
              {
                label: t('insights.whois.domainAgeDays'),
                value: num(whois.domainAgeDays, undetermined),
              },
              {
                label: t('insights.whois.isNewDomain'),
                value:
                  whois.isNewDomain === undefined ? null : <TriState value={whois.isNewDomain} />,
              },
              {
                label: t('insights.whois.isExpired'),
                value: whois.isExpired === undefined ? null : <TriState value={whois.isExpired} />,
              },
              { label: t('insights.whois.statuses'), value: list(whois.statuses) },
            ]}
          />
        </Category>
      ) : null}
      {certificate ? (
        <Category title={t('insights.certificate.title')} testId="insights-certificate">
          <Fields
            items={[
              {
                label: t('insights.certificate.issuer'),
                value: certificate.issuer ? <DefangedProse text={certificate.issuer} /> : null,
              },
              {
                label: t('insights.certificate.subject'),
                value: certificate.subject ? <DefangedText value={certificate.subject} /> : null,
              },
              {
                label: t('insights.certificate.validFrom'),
                value:
                  certificate.validFrom === undefined ? null : (
                    <DateTime
                      dateOnly
                      value={certificate.validFrom}
                      unknownKey="common.undetermined"
                    />
                  ),
              },
              {
                label: t('insights.certificate.validTo'),
                value:
                  certificate.validTo === undefined ? null : (
                    <DateTime
                      dateOnly
                      value={certificate.validTo}
                      unknownKey="common.undetermined"
                    />
                  ),
              },
              {
                label: t('insights.certificate.isValid'),
                value:
                  certificate.isValid === undefined ? null : (
                    <TriState value={certificate.isValid} />
                  ),
              },
              {
                label: t('insights.certificate.subjectAltNames'),
                value: list(certificate.subjectAltNames, true),
              },
            ]}
          />
        </Category>
      ) : null}
      {hosting ? (
        <Category title={t('insights.hosting.title')} testId="insights-hosting">
          <Fields
            items={[
              {
                label: t('insights.hosting.cdnDetected'),
                value:
                  hosting.cdnDetected === undefined ? null : (
                    <TriState value={hosting.cdnDetected} />
                  ),
              },
              {
                label: t('insights.hosting.cdnName'),
                value: hosting.cdnName ? <Breakable>{hosting.cdnName}</Breakable> : null,
              },
              {
                label: t('insights.hosting.providers'),
                value:
                  hosting.providers && hosting.providers.length > 0 ? (
                    <Breakable>
                      {hosting.providers.map((p, i) => (
                        <span key={i}>
                          {i > 0 ? '; ' : ''}
                          {[p.organization, p.network].filter(Boolean).join(' · ')}{' '}
                          {p.ip ? <DefangedText value={p.ip} /> : null}
                          {p.isCdn ? ` (${t('insights.hosting.cdn')})` : ''}
                          {p.abuseEmails && p.abuseEmails.length > 0
                            ? ` — ${t('insights.hosting.abuse')} ${p.abuseEmails.join(', ')}`
                            : ''}
                        </span>
                      ))}
                    </Breakable>
                  ) : null,
              },
              {
                label: t('insights.hosting.originHints'),
                value:
                  hosting.originHints && hosting.originHints.length > 0 ? (
                    <Breakable>
                      {hosting.originHints.map((o, i) => (
                        <span key={i}>
                          {i > 0 ? '; ' : ''}
                          {o.organization ?? ''} {o.ip ? <DefangedText value={o.ip} /> : null}
                        </span>
                      ))}
                    </Breakable>
                  ) : null,
              },
            ]}
          />
        </Category>
      ) : null}
      {page ? (
        <Category title={t('insights.page.title')} testId="insights-page">
          <Fields
            items={[
              {
                label: t('insights.page.pageTitle'),
                value: page.title ? <DefangedProse text={page.title} /> : null,
              },
              {
                label: t('insights.page.metaDescription'),
                value: page.metaDescription ? <Breakable>{page.metaDescription}</Breakable> : null,
              },
              {
                label: t('insights.page.headings'),
                value:
                  page.headings && page.headings.length > 0 ? (
                    <Breakable>{page.headings.join(' | ')}</Breakable>
                  ) : null,
              },
              {
                label: t('insights.page.linkCount'),
                value: page.linkCount === undefined ? null : String(page.linkCount),
              },
              {
                label: t('insights.page.formInputCount'),
                value: page.formInputCount === undefined ? null : String(page.formInputCount),
              },
              {
                label: t('insights.page.imageCount'),
                value: page.imageCount === undefined ? null : String(page.imageCount),
              },
            ]}
          />
        </Category>
      ) : null}
      {indicators ? (
        <Category title={t('insights.indicators.title')} testId="insights-indicators">
          <Fields
            items={[
              {
                label: t('insights.indicators.requestedUrl'),
                value: indicators.requestedUrl ? (
                  <DefangedText value={indicators.requestedUrl} />
                ) : null,
              },
              {
                label: t('insights.indicators.finalUrl'),
                value: indicators.finalUrl ? <DefangedText value={indicators.finalUrl} /> : null,
              },
              {
                label: t('insights.indicators.redirectChain'),
                value: list(indicators.redirectChain, true),
              },
              {
                label: t('insights.indicators.ssdeepHash'),
                value: indicators.ssdeepHash ? (
                  <Breakable>{indicators.ssdeepHash}</Breakable>
                ) : null,
              },
              {
                label: t('insights.indicators.pHash'),
                value: indicators.pHash ? <Breakable>{indicators.pHash}</Breakable> : null,
              },
              {
                label: t('insights.indicators.captureDuration'),
                value:
                  indicators.captureDurationMs === undefined
                    ? null
                    : t('insights.indicators.ms', { ms: indicators.captureDurationMs }),
              },
              {
                label: t('insights.indicators.scrapeRoute'),
                value: indicators.scrapeRoute ? (
                  <Breakable>
                    {[
                      indicators.scrapeRoute.method,
                      indicators.scrapeRoute.uaType,
                      indicators.scrapeRoute.proxyType,
                      indicators.scrapeRoute.country,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                    {indicators.scrapeRoute.mobileExit
                      ? ` · ${t('insights.indicators.mobileExit')}`
                      : ''}
                  </Breakable>
                ) : null,
              },
            ]}
          />
        </Category>
      ) : null}
    </Section>
  );
}
