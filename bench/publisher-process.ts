// Starts one bench/ingest-publisher.ts process (bench/ingest.ts, bench/ingest-bare.ts).
import { spawn } from 'node:child_process';
import { join } from 'node:path';

// The job (every gateway's key among it) goes to each publisher as the first line of its stdin: on the command
// line 1,500 gateways' keys already exceeded the kernel's argument limit (E2BIG). Each publisher connects its
// gateways, says "connected", and starts when every publisher is connected and has read "go": the run's clock
// (throughput, steady state) starts then, not while 5,000 gateways sign in.
/** What one publisher did; `lags`: each acknowledged report's publish-to-PUBACK time in ms. */
export type PublisherResult = { sent: number; readings: number; acked: number; refused: number; lags: number[] };
export function publisher(job: object): { connected: Promise<void>; go: () => void; done: Promise<PublisherResult> } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'ingest-publisher.ts')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  let onConnected = () => {};
  const connected = new Promise<void>((resolve) => {
    onConnected = resolve;
  });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    out += chunk;
    if (out.includes('connected\n')) onConnected();
  });
  const done = new Promise<PublisherResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) reject(new Error(`publisher exited with ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '{}'));
    });
  });
  child.stdin.write(`${JSON.stringify(job)}\n`);
  return { connected, go: () => child.stdin.end('go\n'), done };
}
