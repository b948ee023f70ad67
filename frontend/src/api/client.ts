// The HTTP client: the service's four routes, with typed answers.
import { BINARY_TRACE, decodeTrace } from './binaryTrace';
import type { Example, GradCheck, GradCheckRequest, Health, Reference, Trace, TraceRequest } from './types';

export type { GradCheck };
/** A trace request (`iteration`: which training iteration's graph to record in full). */
export type TraceRequestBody = TraceRequest;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}

async function answer<T>(response: Response): Promise<T> {
  if (response.ok && response.headers.get('Content-Type')?.startsWith(BINARY_TRACE)) return decodeTrace(await response.arrayBuffer()) as T;
  if (response.ok) return (await response.json()) as T;
  let detail = response.statusText;
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object' && 'detail' in body) {
      const d = (body as { detail: unknown }).detail;
      detail = typeof d === 'string' ? d : JSON.stringify(d);
    }
  } catch {
    /* not JSON: keep the status text */
  }
  const retry = Number(response.headers.get('Retry-After'));
  throw new ApiError(response.status, `${response.status}: ${detail}`, Number.isFinite(retry) && retry > 0 ? retry : null);
}

export interface Client {
  trace(request: TraceRequestBody, signal?: AbortSignal): Promise<Trace>;
  gradcheck(request: GradCheckRequest, signal?: AbortSignal): Promise<GradCheck>;
  examples(): Promise<Example[]>;
  reference(): Promise<Reference>;
  health(): Promise<Health>;
}

export function createClient(base = '', fetcher: typeof fetch = fetch.bind(globalThis)): Client {
  const get = <T>(path: string) => fetcher(base + path, { headers: { Accept: 'application/json' } }).then((r) => answer<T>(r));
  return {
    trace: (request, signal) =>
      fetcher(base + '/api/trace', {
        method: 'POST',
        // The binary form: its float arrays arrive as Float32Arrays, not as numbers to parse.
        headers: { 'Content-Type': 'application/json', Accept: `${BINARY_TRACE}, application/json;q=0.9` },
        body: JSON.stringify(request),
        signal,
      }).then((r) => answer<Trace>(r)),
    gradcheck: (request, signal) =>
      fetcher(base + '/api/gradcheck', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(request),
        signal,
      }).then((r) => answer<GradCheck>(r)),
    examples: () => get<Example[] | { examples: Example[] }>('/api/examples').then((e) => (Array.isArray(e) ? e : e.examples)),
    reference: () => get<Reference>('/api/reference'),
    health: () => get<Health>('/api/health'),
  };
}
