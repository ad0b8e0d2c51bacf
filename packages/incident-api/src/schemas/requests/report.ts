import { z } from 'zod';
import { REPORT_INCIDENT_TYPES } from '../vocabularies';
import { crossFieldRules, enumParam, isUrlOrDomain, nonEmptyString, strictRequest } from './fields';

export const MAX_REPORT_ATTACHMENTS = 12;
/** "Total request size must stay under 10 MB": read as decimal megabytes, the stricter reading. */
export const MAX_REPORT_BYTES = 10_000_000;

export type TAttachmentContent = Blob | Uint8Array;

export const ZReportAttachment = strictRequest('an attachment', {
  filename: nonEmptyString('attachments[].filename'),
  content: z.custom<TAttachmentContent>(
    (value) => value instanceof Blob || value instanceof Uint8Array,
    {
      error: 'attachments[].content must be a Blob or a Uint8Array',
    },
  ),
  contentType: z.string().optional(),
});
export type TReportAttachment = z.infer<typeof ZReportAttachment>;

export const attachmentSize = (attachment: { content: TAttachmentContent }) =>
  attachment.content instanceof Blob ? attachment.content.size : attachment.content.byteLength;

const FORMAT_BY_TYPE = {
  email: { schema: z.email(), rule: 'an email address' },
  phone: { schema: z.e164(), rule: 'an E.164 phone number such as +14155550123' },
  ipv4: { schema: z.ipv4(), rule: 'an IPv4 address such as 192.0.2.10' },
} as const;

/**
 * POST /v1/incident/tkd and /monitor. A report needs `url`, or a `subject` that is a URL or domain,
 * or `incidentType` (email, phone, ipv4) with a `subject` in that type's format. `comment` may be
 * empty (non-empty is the comment endpoint's rule). Attachments make it a multipart request.
 */
export const ZReportRequest = strictRequest('a report', {
  url: z
    .string({ error: 'url must be a string' })
    .refine(isUrlOrDomain, { error: 'url must be an http(s) URL or a domain name' })
    .optional(),
  incidentType: enumParam('incidentType', REPORT_INCIDENT_TYPES).optional(),
  subject: nonEmptyString('subject').optional(),
  reportedBy: z.email({ error: 'reportedBy must be an email address' }).optional(),
  clientId: nonEmptyString('clientId').optional(),
  comment: z
    .string({ error: 'comment must be a string when present (null is rejected)' })
    .optional(),
  attachments: z
    .array(ZReportAttachment, { error: 'attachments must be an array of files' })
    .max(MAX_REPORT_ATTACHMENTS, {
      error: `attachments accepts at most ${MAX_REPORT_ATTACHMENTS} files`,
    })
    .optional(),
}).superRefine((report, ctx) => {
  if (report.incidentType !== undefined) {
    // an unknown incidentType is already reported by its own field rule
    const format = Object.hasOwn(FORMAT_BY_TYPE, report.incidentType)
      ? FORMAT_BY_TYPE[report.incidentType]
      : undefined;
    if (format && report.subject === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['subject'],
        message: `subject is required when incidentType is ${report.incidentType}`,
      });
    } else if (
      format &&
      typeof report.subject === 'string' &&
      !format.schema.safeParse(report.subject).success
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['subject'],
        message: `subject must be ${format.rule} when incidentType is ${report.incidentType}`,
      });
    }
  } else if (report.url === undefined) {
    // The spec: url is "required for domain/url incidents unless subject is given"; a subject
    // without incidentType is then the URL or domain itself.
    if (report.subject === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['url'],
        message:
          'url is required unless subject is given (with incidentType for email, phone or ipv4)',
      });
    } else if (typeof report.subject === 'string' && !isUrlOrDomain(report.subject)) {
      ctx.addIssue({
        code: 'custom',
        path: ['subject'],
        message:
          'subject must be an http(s) URL or a domain name when incidentType is not given (email, phone and ipv4 subjects need incidentType)',
      });
    }
  }
  const size = reportPayloadSize(report);
  if (size >= MAX_REPORT_BYTES) {
    ctx.addIssue({
      code: 'custom',
      path: ['attachments'],
      message: `a report must total under ${MAX_REPORT_BYTES} bytes (10 MB); this one has ${size}`,
    });
  }
}, crossFieldRules);
export type TReportRequest = z.infer<typeof ZReportRequest>;

/** Bytes of the files plus the text fields; multipart framing is checked again when encoding. */
export function reportPayloadSize(report: Partial<TReportRequest>): number {
  const encoder = new TextEncoder();
  let size = 0;
  for (const [key, value] of Object.entries(report)) {
    if (key === 'attachments' || typeof value !== 'string') continue;
    size += encoder.encode(value).byteLength;
  }
  const attachments: unknown = report.attachments;
  for (const attachment of Array.isArray(attachments) ? attachments : []) {
    const content: unknown = attachment?.content;
    if (content instanceof Blob || content instanceof Uint8Array)
      size += attachmentSize({ content });
  }
  return size;
}
