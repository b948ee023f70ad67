// The real gradtrace server for browser tests: `gradtrace serve` on a free port,
// started from the repository root, ready once /api/health answers.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** @returns {Promise<number>} */
export function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => ok(port));
    });
  });
}

/**
 * @param {{ timeoutMs?: number }} [options]
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
export async function startServer({ timeoutMs = 90_000 } = {}) {
  const bin = resolve(ROOT, '.venv', 'bin', 'gradtrace');
  if (!existsSync(bin)) throw new Error(`${bin} not found: run \`make setup\` first`);
  if (!existsSync(resolve(ROOT, 'backend', 'gradtrace', 'static', 'index.html')))
    throw new Error('the frontend is not built: run `npm run build` first');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(bin, ['serve', '--host', '127.0.0.1', '--port', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  child.stdout?.on('data', (d) => (log += d));
  child.stderr?.on('data', (d) => (log += d));
  /** @type {number | null} */
  let exitCode = null;
  child.on('exit', (code) => (exitCode = code ?? -1));

  const stop = async () => {
    if (exitCode !== null || child.pid === undefined) return;
    const exited = new Promise((ok) => child.once('exit', ok));
    try {
      process.kill(-child.pid, 'SIGTERM'); // the server and its worker processes
    } catch {
      /* already gone */
    }
    const timer = setTimeout(() => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, 5000);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exitCode !== null) throw new Error(`gradtrace serve exited (${exitCode}):\n${log}`);
    try {
      const r = await fetch(`${url}/api/health`);
      if (r.ok) return { url, stop };
    } catch {
      /* not yet */
    }
    await new Promise((ok) => setTimeout(ok, 250));
  }
  await stop();
  throw new Error(`gradtrace serve did not answer /api/health within ${timeoutMs} ms:\n${log}`);
}
