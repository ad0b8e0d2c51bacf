// What every refusal must look like: a 4xx with a message a person can read, and nothing an
// attacker can use: no stack trace, no file path, no secret, no echoed markup.
import { HOSTILE_MARKUP } from './fuzz-cases';

export interface Answer {
  status: number;
  contentType: string;
  body: string;
}

const STACK_TRACE = [
  /\n\s+at [^\n]+:\d+:\d+/,
  /\bat (async )?[\w.<>]+ \((file:\/\/|\/)[^)]+\)/,
  /node_modules\//,
  /\/work\/|\/src\/[\w/-]+\.ts\b/,
  /\b(TypeError|ReferenceError|SyntaxError|PrismaClient\w*Error|RangeError): /,
];

/** Problems with one answer; an empty list means it is acceptable. */
export function answerProblems(
  answer: Answer,
  secrets: string[],
  expect: 'refused' | 'duplicate',
): string[] {
  const problems: string[] = [];
  if (expect === 'duplicate') {
    const duplicate = answer.status === 200 && /"status":"duplicate"/.test(answer.body);
    // A verbatim replay older than the signature tolerance is refused as stale instead.
    const stale = answer.status === 400 && /stale_timestamp/.test(answer.body);
    if (!duplicate && !stale) problems.push(`expected a duplicate answer, got ${answer.status}`);
  } else if (answer.status < 400 || answer.status > 499) {
    problems.push(`expected 4xx, got ${answer.status}`);
  }
  if (answer.body.trim() === '') problems.push('empty answer body');
  if (answer.contentType.includes('json')) {
    try {
      const parsed = JSON.parse(answer.body) as {
        error?: { code?: unknown; message?: unknown };
        status?: unknown;
      };
      const ok =
        (typeof parsed.error?.code === 'string' &&
          typeof parsed.error.message === 'string' &&
          parsed.error.message !== '') ||
        (expect === 'duplicate' && parsed.status === 'duplicate');
      if (!ok) problems.push('JSON answer without error.code and error.message');
    } catch {
      problems.push('answer says JSON but is not');
    }
  } else if (!/text\/(html|plain)/.test(answer.contentType)) {
    problems.push(`unexpected content type "${answer.contentType}"`);
  }
  for (const pattern of STACK_TRACE) {
    if (pattern.test(answer.body)) problems.push(`internal detail in the answer (${pattern})`);
  }
  for (const secret of secrets) {
    if (secret.length >= 8 && answer.body.includes(secret)) problems.push('a secret in the answer');
  }
  if (answer.body.includes(HOSTILE_MARKUP) || /<script>alert|<svg onload/i.test(answer.body)) {
    problems.push('hostile markup echoed unescaped');
  }
  return problems;
}
