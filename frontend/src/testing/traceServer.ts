// A stand-in for the trace and gradcheck routes, for unit tests of the app's workbench:
// the real server is Python and runs in the browser tests. It answers a program with
// the trace recorded from it, and a program it does not know as the server refuses one.
import type { Client, GradCheck } from '../api/client';
import type { Trace, TraceRequest } from '../api/types';
import { Workbench } from '../app/workbench.svelte';
import { computeLayout } from '../graph/layout';
import { fixtures } from './fixtures';

/** The recorded traces by the program they ran. */
export function recorded(): Map<string, Trace> {
  return new Map(Object.values(fixtures).map((t) => [t.__source, t]));
}

/**
 * A stand-in for the trace route (the real one runs in the browser tests): it answers
 * each program with its recorded trace, in the order `release` lets the answers go.
 */
export class TraceServer implements Pick<Client, 'trace' | 'gradcheck'> {
  readonly requests: TraceRequest[] = [];
  readonly signals: AbortSignal[] = [];
  /** Answers wait until released (else they go at once). */
  hold = false;
  /** What the gradient check answers (an Error: it fails). */
  check: GradCheck | Error = { eps: 1e-6, ok: true, pass: 0, leaves: [] };
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly traces: ReadonlyMap<string, Trace>) {}

  trace(request: TraceRequest, signal?: AbortSignal): Promise<Trace> {
    this.requests.push(request);
    if (signal) this.signals.push(signal);
    const found = this.traces.get(request.source);
    const answer = () => (found ? Promise.resolve(found) : Promise.reject(new Error('400: no such program')));
    if (!this.hold) return answer();
    return new Promise((ok, fail) => this.waiting.push(() => answer().then(ok, fail)));
  }

  gradcheck(): Promise<GradCheck> {
    return this.check instanceof Error ? Promise.reject(this.check) : Promise.resolve(this.check);
  }

  /** Let answer `k` (in the order asked) go. */
  release(k: number): void {
    this.waiting[k]!();
  }
}

/** A workbench on this server, with the real layout (no worker) and boxes 7 px a character. */
export function testWorkbench(source = fixtures.scalarOps.__source, traces: ReadonlyMap<string, Trace> = recorded()) {
  const server = new TraceServer(traces);
  const stats: Record<string, number> = {};
  const layout = async (input: Parameters<typeof computeLayout>[0]) => computeLayout(input);
  const wb = new Workbench(
    { client: server, layout, measure: (s) => s.length * 7, reducedMotion: () => true, stats: () => stats },
    { source },
  );
  return { server, stats, wb };
}
