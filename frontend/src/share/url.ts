// A moment of gradtrace in the URL hash: the program (deflated, base64url), the
// device, the seed and the step, so a link opens exactly that moment; with the
// lecturer's captions, the predict-mode questions and the view.
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
import { decodeCaptions, encodeCaptions, type Captions } from '../player/captions';
import { fromBase64Url, toBase64Url } from './base64url';

export { fromBase64Url, toBase64Url };

export interface SharedState {
  source: string;
  device: string;
  seed: number;
  step: number | null;
  /** The example the program came from (its lesson is shown), if any. */
  example?: string | null;
  /** Open in presentation mode. */
  present?: boolean;
  /** Captions by step. */
  captions?: Captions;
  /** Predict mode: the steps that ask (null or absent: predict mode off). */
  ask?: readonly number[] | null;
  /** The torchviz-style view (grad_fn chain only). */
  torchviz?: boolean;
}

/** Steps, ascending, as base36 differences joined by '.' (no escaping, short): 12,14,20 → "c.2.6". */
export function encodeSteps(steps: readonly number[]): string {
  const sorted = [...new Set(steps)].filter((s) => Number.isInteger(s) && s >= 0).sort((a, b) => a - b);
  return sorted.map((s, i) => (s - (i ? sorted[i - 1]! : 0)).toString(36)).join('.');
}

export function decodeSteps(text: string): number[] {
  const out: number[] = [];
  let at = 0;
  for (const part of text.split('.')) {
    if (!/^[0-9a-z]+$/.test(part)) continue;
    at += parseInt(part, 36);
    out.push(at);
  }
  return out;
}

export function encodeHash(state: SharedState): string {
  const params = new URLSearchParams();
  params.set('code', toBase64Url(deflateSync(strToU8(state.source), { level: 9 })));
  params.set('device', state.device);
  if (state.seed !== 0) params.set('seed', String(state.seed));
  if (state.step !== null) params.set('step', String(state.step));
  if (state.example) params.set('example', state.example);
  if (state.present) params.set('present', '1');
  if (state.torchviz) params.set('view', 'torchviz');
  if (state.ask) params.set('ask', encodeSteps(state.ask));
  const captions = state.captions ? encodeCaptions(state.captions) : '';
  if (captions) params.set('cap', captions);
  return '#' + params.toString();
}

/** The state in a hash, or null when the hash holds no program (or a broken one). */
export function decodeHash(hash: string): SharedState | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const code = params.get('code');
  if (!code) return null;
  let source: string;
  try {
    source = strFromU8(inflateSync(fromBase64Url(code)));
  } catch {
    return null;
  }
  const int = (name: string): number | null => {
    const v = params.get(name);
    if (v === null || !/^-?\d+$/.test(v)) return null;
    return Number(v);
  };
  return {
    source,
    device: params.get('device') || 'auto',
    seed: int('seed') ?? 0,
    step: int('step'),
    example: params.get('example'),
    present: params.get('present') === '1',
    captions: decodeCaptions(params.get('cap')),
    ask: params.has('ask') ? decodeSteps(params.get('ask') ?? '') : null,
    torchviz: params.get('view') === 'torchviz',
  };
}
