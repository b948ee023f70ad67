// A moment of gradtrace in the URL hash: the program (deflated, base64url), the
// device, the seed and the step, so a link opens exactly that moment.
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';

export interface SharedState {
  source: string;
  device: string;
  seed: number;
  step: number | null;
  /** The example the program came from (its lesson is shown), if any. */
  example?: string | null;
  /** Open in presentation mode. */
  present?: boolean;
}

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
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
  };
}
