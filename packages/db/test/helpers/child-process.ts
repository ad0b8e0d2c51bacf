import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Runs a TypeScript file under test/fixtures in a real child process through tsx. */
export function spawnFixture(fixture: string, args: string[]): ChildProcess {
  const file = fileURLToPath(new URL(`../fixtures/${fixture}`, import.meta.url));
  return spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export type FinishedProcess = {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
};

export function runFixture(fixture: string, args: string[]): Promise<FinishedProcess> {
  const child = spawnFixture(fixture, args);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
