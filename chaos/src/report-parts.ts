// Each chaos test file leaves its figures in report/parts/<name>.json; scripts/run-chaos.ts adds
// them up into report.json and report.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPORT_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'report',
);
const PARTS_DIR = path.join(REPORT_DIR, 'parts');

export function writeReportPart(name: string, part: unknown): void {
  mkdirSync(PARTS_DIR, { recursive: true });
  writeFileSync(path.join(PARTS_DIR, `${name}.json`), `${JSON.stringify(part, null, 2)}\n`);
}
