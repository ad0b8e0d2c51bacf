// Security tests record each property they proved (or saw fail) for the report.
import type { SecurityFinding } from './report';
import { writeReportPart } from './report-parts';

export function findingsRecorder(name: string) {
  const findings: SecurityFinding[] = [];
  return {
    record(finding: SecurityFinding) {
      findings.push(finding);
      writeReportPart(`security-${name}`, findings);
    },
  };
}
