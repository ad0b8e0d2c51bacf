// How the benchmarks wait on a loaded machine: a delivery not acknowledged in time is sent again,
// as the incident service does (bench/redelivery.ts), and a child process is waited for while it
// uses CPU time, stopped once it has used none for too long (bench/child-progress.ts).
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { retryCounts } from '../../../scripts/bench-support';
import { whileChildWorks } from '../bench/child-progress';
import { deliverAsTheService, missedDeliveries } from '../bench/redelivery';

const timeout = () =>
  Object.assign(new Error('The operation was aborted'), { name: 'TimeoutError' });

describe('deliverAsTheService', () => {
  it('sends again what was not acknowledged in time, answered otherwise or reset', async () => {
    const answers: (number | Error)[] = [
      timeout(),
      503,
      new TypeError('fetch failed', {
        cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }),
      }),
      200,
    ];
    const windows: number[] = [];
    const before = retryCounts().byCall['incident delivery'] ?? 0;
    const delivery = await deliverAsTheService(
      async (timeoutMs) => {
        windows.push(timeoutMs);
        const answer = answers.shift()!;
        if (answer instanceof Error) throw answer;
        return answer;
      },
      { delaysMs: [10, 10, 10, 10] },
    );
    expect(delivery.status).toBe(200);
    expect(delivery.missed).toEqual(['not answered within 5 s', 'answered 503', 'ECONNRESET']);
    expect(windows).toEqual([5_000, 5_000, 5_000, 5_000]);
    expect(retryCounts().byCall['incident delivery']! - before).toBe(3);
    // past the schedule's last delay, the delivery is given up with its last answer
    const givenUp = await deliverAsTheService(async () => 503, { delaysMs: [10] });
    expect(givenUp).toMatchObject({ status: 503, missed: ['answered 503', 'answered 503'] });
    expect(missedDeliveries([delivery, { missed: ['answered 503'] }])).toEqual({
      deliveriesNotAcknowledged: 4,
      deliveriesNotAcknowledgedByCause: {
        'not answered within 5 s': 1,
        'answered 503': 2,
        ECONNRESET: 1,
      },
    });
  }, 20_000);
});

describe('whileChildWorks', () => {
  const child = (code: string) =>
    spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const firstOutput = (started: ReturnType<typeof child>) =>
    new Promise<string>((resolve, reject) => {
      started.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString()));
      started.once('exit', (code, signal) => reject(new Error(`exited (${code ?? signal})`)));
    });

  it('waits as long as the child keeps using CPU time', async () => {
    let started: ReturnType<typeof child> | undefined;
    const output = await whileChildWorks(
      'a busy child',
      () => {
        // 3 s of work, printed at the end: longer than the 1 s without CPU time allowed
        started = child(
          'const end = Date.now() + 3000; while (Date.now() < end); console.log("ready");',
        );
        return firstOutput(started);
      },
      { stallMs: 1_000, pids: () => [started!.pid!] },
    );
    expect(output.trim()).toBe('ready');
    started!.kill();
  }, 20_000);

  it('stops a child that used no CPU time for the stall, and says so', async () => {
    let started: ReturnType<typeof child> | undefined;
    const waiting = whileChildWorks(
      'an idle child',
      () => {
        started = child('setTimeout(() => console.log("too late"), 60_000)');
        return firstOutput(started);
      },
      { stallMs: 1_500, pids: () => [started!.pid!] },
    );
    await expect(waiting).rejects.toThrow('an idle child: the child used no CPU time for 1.5 s');
    if (started!.exitCode === null && started!.signalCode === null)
      await new Promise((resolve) => started!.once('exit', resolve));
    expect(started!.signalCode).toBe('SIGKILL');
  }, 20_000);
});
