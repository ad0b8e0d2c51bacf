// Parent side of ingest-server.ts: forks it, waits for its address, and stops it. Both waits go
// on while the child uses CPU time (child-progress.ts), not for a fixed time.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { NO_TIME_LIMIT_MS, whileChildWorks } from './child-progress';
import {
  ZChildMessage,
  type TChildMessage,
  type TParentMessage,
  type TServerConfig,
  type TServerStats,
} from './ipc-messages';

const serverEntry = fileURLToPath(new URL('./ingest-server.ts', import.meta.url));

export interface ServerUnderTest {
  url: string;
  /** Measured runs happen between resume and pause; the server's figures cover only those. */
  resume(): void;
  pause(): void;
  /** Stops accepting, waits for every inbox write, closes the database, and exits. */
  stop(): Promise<TServerStats>;
  /** For error paths: ends the child at once. */
  kill(): void;
}

function nextMessage(child: ChildProcess, timeoutMs: number): Promise<TChildMessage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error(`no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onMessage = (raw: unknown) => finish(null, ZChildMessage.parse(raw));
    const onExit = (code: number | null) =>
      finish(new Error(`server under test exited (${code ?? 'signal'}) before answering`));
    function finish(error: Error | null, message?: TChildMessage) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) reject(error);
      else if (message?.type === 'failed') reject(new Error(`server under test: ${message.error}`));
      else resolve(message!);
    }
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

export async function startServer(config: TServerConfig): Promise<ServerUnderTest> {
  const child = fork(serverEntry, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_SERVER_CONFIG: JSON.stringify(config) },
    // The child's output goes to stderr: the benchmark's stdout ends with its JSON line.
    stdio: ['ignore', 2, 2, 'ipc'],
  });
  const tell = (message: TParentMessage) => child.send(message);
  const label = config.kind === 'connector' ? `${config.backend} server` : 'baseline server';
  const answer = (what: string) =>
    whileChildWorks(what, () => nextMessage(child, NO_TIME_LIMIT_MS), { pids: () => [child.pid!] });
  try {
    const ready = await answer(`${label}: starting`);
    if (ready.type !== 'ready') throw new Error(`unexpected message ${ready.type}`);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return {
      url: ready.url,
      resume: () => tell({ type: 'resume' }),
      pause: () => tell({ type: 'pause' }),
      stop: async () => {
        const stopping = answer(`${label}: writing its last events, stopping`);
        tell({ type: 'stop' });
        const stopped = await stopping;
        if (stopped.type !== 'stopped') throw new Error(`unexpected message ${stopped.type}`);
        await exited;
        return stopped.stats;
      },
      kill: () => {
        if (child.exitCode === null) child.kill('SIGKILL');
      },
    };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}
