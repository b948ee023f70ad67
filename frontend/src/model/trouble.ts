// Trouble spotting: NaN and infinite values, gradients that explode or vanish.
// Computed once per trace from the recorded values and gradient events.
import type { TensorData, Trace } from '../api/types';
import { knownValues, toNumber } from '../lib/format';
import { slotTargets } from './slots';
import type { GraphIndex } from './graphIndex';

export const TROUBLE_NAN = 1;
export const TROUBLE_INF = 2;
export const TROUBLE_EXPLODING = 4;
export const TROUBLE_VANISHING = 8;

export const EXPLODING_NORM = 1e3;
export const VANISHING_NORM = 1e-7;

export const TROUBLE_LABELS: [number, string, string][] = [
  [TROUBLE_NAN, 'NaN', 'a value or gradient is not a number'],
  [TROUBLE_INF, 'inf', 'a value or gradient is infinite'],
  [TROUBLE_EXPLODING, 'exploding', `gradient norm above ${EXPLODING_NORM}`],
  [TROUBLE_VANISHING, 'vanishing', `gradient norm below ${VANISHING_NORM} while the gradient above it is not`],
];

/** NaN and inf counts of a tensor, from its stats or its values. */
export function nonFinite(t: TensorData | null | undefined): { nan: number; inf: number } {
  if (!t) return { nan: 0, inf: 0 };
  let nan = t.stats?.nan ?? 0;
  let inf = t.stats?.inf ?? 0;
  if (!t.stats) {
    for (const v of knownValues(t).values) {
      const x = toNumber(v);
      if (Number.isNaN(x)) nan++;
      else if (!Number.isFinite(x)) inf++;
    }
  }
  return { nan, inf };
}

/** The L2 norm of a tensor (stats.norm when there, else from its values); NaN if unknown. */
export function norm(t: TensorData | null | undefined): number {
  if (!t) return NaN;
  if (t.stats && t.stats.norm !== null && t.stats.norm !== undefined) return toNumber(t.stats.norm);
  const { values, complete } = knownValues(t);
  if (!complete) return NaN;
  let s = 0;
  for (const v of values) {
    const x = toNumber(v);
    s += x * x;
  }
  return Math.sqrt(s);
}

function flagsOf(t: TensorData | null | undefined): number {
  const { nan, inf } = nonFinite(t);
  return (nan ? TROUBLE_NAN : 0) | (inf ? TROUBLE_INF : 0);
}

/** Trouble flags per node (0 = fine). */
export function findTrouble(trace: Trace, g: GraphIndex): Uint8Array {
  const flags = new Uint8Array(g.n);
  g.nodes.forEach((node, i) => {
    if (node.kind === 'tensor') flags[i]! |= flagsOf(node.value) | flagsOf(node.grad);
  });
  trace.timeline.forEach((e, k) => {
    if (e.phase !== 'backward') return;
    const i = g.eventNode[k]!;
    if (i < 0) return;
    if (e.node_kind === 'tensor') {
      const f = flagsOf(e.grad);
      flags[i]! |= f;
      const n = norm(e.grad);
      if (!f && n > EXPLODING_NORM) flags[i]! |= TROUBLE_EXPLODING;
      return;
    }
    // A Function: a slot whose gradient all but vanished while what it received did not.
    let upstream = 0;
    for (const t of e.grad_outputs) if (t) upstream = Math.max(upstream, norm(t));
    if (!(upstream >= VANISHING_NORM) || !Number.isFinite(upstream)) return;
    const targets = slotTargets(g, i, e);
    e.grad_inputs.forEach((t, j) => {
      const target = targets[j]!;
      if (!t || target < 0) return;
      const n = norm(t);
      if (n < VANISHING_NORM) {
        const node = g.nodes[target]!;
        const tensor = node.kind === 'function' && node.tensor ? (g.byId.get(node.tensor) ?? target) : target;
        flags[tensor]! |= TROUBLE_VANISHING;
      }
    });
  });
  return flags;
}

/** Words for a node's trouble flags. */
export function troubleWords(flags: number): string[] {
  return TROUBLE_LABELS.filter(([bit]) => flags & bit).map(([, label, why]) => `${label}: ${why}`);
}
