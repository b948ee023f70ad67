// The chain rule at a backward step, in numbers, derived from what the engine
// recorded: each Function event's grad_outputs (what it received) and grad_inputs
// (what it sent to each input). For a tensor v whose gradient has just arrived:
//   ∂root/∂v = Σ over the Functions f that used v:  ∂root/∂u_f · ∂u_f/∂v
// where u_f is f's output, ∂root/∂u_f is f's grad_output and the local factor
// ∂u_f/∂v = grad_input / grad_output (for scalars); localDerivative.ts says what that
// factor is for each kind of Function. Pure: no DOM, no KaTeX.
import type { BackwardFunctionEvent, TensorData, Trace } from '../api/types';
import { EDGE_AUTOGRAD, KIND_FUNCTION, type GraphIndex } from './graphIndex';
import { formatNumber, formatShape, knownValues, scalarOf, toNumber } from '../lib/format';
import { explainFunction, type FunctionExplanation, type LocalDerivative } from './localDerivative';
import { outputTensor, slotTargets, tensorOf } from './slots';

export { summedDims } from './localDerivative';
export { slotTargets } from './slots';

export interface ChainTerm {
  /** The Function that used v. */
  fn: number;
  /** Its output tensor node, or -1 when the trace has none. */
  out: number;
  /** Its output's name in a formula: the tensor's name, or an expression ("wᵀ"). */
  output: string;
  /** ∂root/∂u: what the Function received. */
  upstream: TensorData | null;
  /** What it sent back to v (grad_inputs slot(s) of v, summed when v fed it twice). */
  contribution: TensorData | null;
  /** Scalars: contribution / upstream, else null. */
  factor: number | null;
  /** Dimensions of u that were summed to give v's shape (a real broadcast only). */
  summedDims: number[];
  /** The local derivative ∂u/∂v of each slot of f that v fed (two for x * x). */
  locals: LocalDerivative[];
  /** ∂u/∂v in a formula and in words and numbers. */
  note: string | null;
}

export interface TensorRule {
  kind: 'tensor';
  node: number;
  root: number;
  pass: number;
  terms: ChainTerm[];
  /** The gradient the engine delivered to v. */
  total: TensorData;
  scalar: boolean;
  tex: string;
  text: string;
}

export interface FunctionRule {
  kind: 'function';
  node: number;
  /** The Function's output tensor, or -1. */
  out: number;
  /** Its output's name in a formula: the tensor's name, or an expression ("wᵀ"). */
  output: string;
  root: number;
  pass: number;
  upstream: TensorData | null;
  /** One entry per input slot that got a gradient. */
  slots: { input: number; grad: TensorData; factor: number | null; local: LocalDerivative }[];
  /** What the Function's backward does, and the local derivative of each input. */
  explanation: FunctionExplanation;
  tex: string;
  text: string;
}

export type StepRule = TensorRule | FunctionRule;

interface Links {
  /** Out-edge indices per node. */
  out: number[][];
  /** The AccumulateGrad node of each leaf tensor (or -1). */
  acc: Int32Array;
}

const linksCache = new WeakMap<GraphIndex, Links>();

function links(g: GraphIndex): Links {
  let l = linksCache.get(g);
  if (l) return l;
  const out: number[][] = Array.from({ length: g.n }, () => []);
  for (let e = 0; e < g.edgeSource.length; e++) out[g.edgeSource[e]!]!.push(e);
  const acc = new Int32Array(g.n).fill(-1);
  g.nodes.forEach((node, i) => {
    if (node.kind === 'function' && node.tensor) {
      const t = g.byId.get(node.tensor);
      if (t !== undefined) acc[t] = i;
    }
  });
  l = { out, acc };
  linksCache.set(g, l);
  return l;
}

/** f's latest function event in pass `pass` before event index `before`. */
function functionEvent(
  trace: Trace,
  g: GraphIndex,
  passOf: Int32Array,
  f: number,
  pass: number,
  before: number,
): BackwardFunctionEvent | null {
  for (let j = g.bwdStart[f + 1]! - 1; j >= g.bwdStart[f]!; j--) {
    const k = g.bwdEvents[j]!;
    if (k >= before || passOf[k] !== pass) continue;
    const e = trace.timeline[k];
    if (e && e.phase === 'backward' && e.node_kind === 'function') return e;
  }
  return null;
}

function addTensors(a: TensorData | null, b: TensorData | null): TensorData | null {
  if (!a) return b;
  if (!b) return a;
  const av = knownValues(a);
  const bv = knownValues(b);
  if (!av.complete || !bv.complete || av.values.length !== bv.values.length) return a;
  const sum = av.values.map((v, i) => toNumber(v) + toNumber(bv.values[i]!));
  return { ...a, values: a.shape.length === 0 ? sum[0] : reshape(sum, a.shape), preview: null, stats: null };
}

function reshape(flat: number[], shape: number[]): unknown {
  if (shape.length <= 1) return flat;
  const [head, ...rest] = shape as [number, ...number[]];
  const size = rest.reduce((p, q) => p * q, 1);
  return Array.from({ length: head }, (_, i) => reshape(flat.slice(i * size, (i + 1) * size), rest));
}

function scalarValue(t: TensorData | null): number | null {
  if (!t || t.numel !== 1) return null;
  const s = scalarOf(t);
  return s === null ? null : toNumber(s);
}

/** A number for the formula: parenthesised, with a real minus sign in text. */
function num(x: number, tex: boolean): string {
  const s = formatNumber(x);
  return tex ? `(${s})` : `(${s.replace(/^-/, '−')})`;
}

function plainNumber(x: number, tex: boolean): string {
  const s = formatNumber(x);
  return tex ? s : s.replace(/^-/, '−');
}

function texName(name: string): string {
  const escaped = name.replace(/[\\{}_^#$%&~]/g, (c) => (c === '\\' ? '\\backslash ' : `\\${c}`));
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `\\mathit{${escaped}}` : `(\\text{${escaped}})`;
}

function textName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? name : `(${name})`;
}

function partial(top: string, bottom: string, tex: boolean): string {
  return tex ? `\\frac{\\partial ${texName(top)}}{\\partial ${texName(bottom)}}` : `∂${textName(top)}/∂${textName(bottom)}`;
}

/** A small tensor as a matrix, or its shape. */
function texTensor(t: TensorData | null): string {
  if (!t) return '0';
  const s = scalarValue(t);
  if (s !== null) return formatNumber(s);
  const { values, complete } = knownValues(t);
  if (!complete || t.numel > 12 || t.shape.length > 2) return `\\underset{${formatShape(t.shape)}}{[\\dots]}`;
  const rows = t.shape.length === 2 ? t.shape[0]! : 1;
  const cols = t.numel / rows;
  const lines: string[] = [];
  for (let r = 0; r < rows; r++)
    lines.push(
      values
        .slice(r * cols, (r + 1) * cols)
        .map((v) => formatNumber(v))
        .join(' & '),
    );
  return `\\begin{bmatrix}${lines.join(' \\\\ ')}\\end{bmatrix}`;
}

function textTensor(t: TensorData | null): string {
  if (!t) return '0';
  const s = scalarValue(t);
  if (s !== null) return plainNumber(s, false);
  const { values, complete } = knownValues(t);
  if (!complete || t.numel > 12) return `[${formatShape(t.shape)}]`;
  return `[${values.map((v) => formatNumber(v).replace(/^-/, '−')).join(', ')}]`;
}

/** Text inside TeX: \text{…} with TeX's special characters escaped. */
function texText(text: string): string {
  return `\\text{${text.replace(/[\\{}_^#$%&~]/g, (c) => (c === '\\' ? '\\textbackslash{}' : `\\${c}`))}}`;
}

/** A rule in TeX on two lines when it says how (after ": " or ", "), so the panel stays narrow. */
function texRule(rule: string): string {
  const cut = rule.search(/: |, /);
  if (cut < 0) return texText(rule);
  return `${texText(rule.slice(0, cut + 1))} \\\\ &\\quad ${texText(rule.slice(cut + 2))}`;
}

/** The rule to show at `cursor` (the latest event applied), or null outside backward. */
const PASSING_PHASES: ReadonlySet<string> = new Set(['print', 'warning', 'freed', 'line']);

export function ruleAt(trace: Trace, g: GraphIndex, passOf: Int32Array, cursor: number): StepRule | null {
  // The latest backward event applied: what only happens around it (a print, a warning,
  // the graph being freed, a hook's or custom backward's line) does not hide it.
  let k = Math.min(cursor, trace.timeline.length) - 1;
  while (k >= 0 && PASSING_PHASES.has(trace.timeline[k]?.phase ?? '')) k--;
  const e = trace.timeline[k];
  if (!e || e.phase !== 'backward') return null;
  const node = g.byId.get(e.node);
  if (node === undefined) return null;
  const pass = e.pass;
  const rootId = trace.passes.find((p) => p.index === pass)?.root ?? null;
  const root = rootId === null ? -1 : (g.byId.get(rootId) ?? -1);
  const rootName = root >= 0 ? g.longTitle(root) : 'L';
  if (e.node_kind === 'function') return functionRule(trace, g, e, node, root, rootName, pass, k + 1);
  return tensorRule(trace, g, passOf, k, node, e.grad, root, rootName, pass);
}

function functionRule(
  trace: Trace,
  g: GraphIndex,
  e: BackwardFunctionEvent,
  f: number,
  root: number,
  rootName: string,
  pass: number,
  cursor: number,
): FunctionRule {
  const explanation = explainFunction(trace, g, f, e, cursor);
  const outName = explanation.output;
  const upstream = e.grad_outputs.find((t) => t !== null) ?? null;
  const up = scalarValue(upstream);
  const slots: FunctionRule['slots'] = explanation.slots.map((local) => {
    const grad = e.grad_inputs[local.slot]!;
    return { input: local.input, grad, factor: local.value, local };
  });
  const op = (g.nodes[f] as { op: string }).op;
  const tex: string[] = [];
  const text: string[] = [];
  if (op === 'AccumulateGrad') {
    const leaf = tensorOf(g, f);
    const name = g.longTitle(leaf);
    tex.push(`\\texttt{${name.replace(/_/g, '\\_')}.grad} &\\mathrel{{+}{=}} ${texTensor(upstream)}`);
    text.push(`${name}.grad += ${textTensor(upstream)}`);
  }
  for (const s of slots) {
    const inName = s.local.name;
    const lhs = partial(rootName, inName, true);
    const lhsText = partial(rootName, inName, false);
    if (s.factor !== null && up !== null) {
      tex.push(
        `${lhs} &\\mathrel{{+}{=}} ${partial(rootName, outName, true)} \\cdot ${partial(outName, inName, true)} \\\\ &= ${num(up, true)}${num(s.factor, true)} = ${plainNumber(scalarValue(s.grad)!, true)}`,
      );
      text.push(
        `${lhsText} += ${partial(rootName, outName, false)} · ${partial(outName, inName, false)} = ${num(up, false)}${num(s.factor, false)} = ${plainNumber(scalarValue(s.grad)!, false)}`,
      );
    } else {
      // G is what the Function received: ∂root/∂(its output).
      tex.push(`${lhs} &\\mathrel{{+}{=}} ${texRule(s.local.rule)} \\\\ &= ${texTensor(s.grad)}`);
      text.push(`${lhsText} += ${s.local.rule} = ${textTensor(s.grad)}`);
    }
  }
  return {
    kind: 'function',
    node: f,
    out: outputTensor(g, f),
    output: outName,
    root,
    pass,
    upstream,
    slots,
    explanation,
    tex: `\\begin{aligned}${tex.join(' \\\\ ')}\\end{aligned}`,
    text: text.join('; '),
  };
}

function tensorRule(
  trace: Trace,
  g: GraphIndex,
  passOf: Int32Array,
  k: number,
  v: number,
  total: TensorData,
  root: number,
  rootName: string,
  pass: number,
): TensorRule {
  const l = links(g);
  const name = g.longTitle(v);
  const terms: ChainTerm[] = [];
  const holders = [v];
  if (l.acc[v]! >= 0) holders.push(l.acc[v]!);
  const seen = new Set<number>();
  for (const h of holders)
    for (const edge of l.out[h]!) {
      const f = g.edgeTarget[edge]!;
      if (g.edgeKind[edge] !== EDGE_AUTOGRAD || g.kind[f] !== KIND_FUNCTION || f === l.acc[v] || seen.has(f)) continue;
      seen.add(f);
      const event = functionEvent(trace, g, passOf, f, pass, k);
      if (!event) continue;
      const targets = slotTargets(g, f, event);
      let contribution: TensorData | null = null;
      event.grad_inputs.forEach((grad, j) => {
        if (targets[j] === h) contribution = addTensors(contribution, grad);
      });
      if (!contribution) continue;
      const upstream = event.grad_outputs.find((t) => t !== null) ?? null;
      const up = scalarValue(upstream);
      const c = scalarValue(contribution);
      const explanation = explainFunction(trace, g, f, event, k + 1);
      const locals = explanation.slots.filter((s) => s.input === v);
      terms.push({
        fn: f,
        out: outputTensor(g, f),
        output: explanation.output,
        upstream,
        contribution,
        factor: up !== null && c !== null && up !== 0 && (contribution as TensorData).numel === 1 ? c / up : null,
        summedDims: [...new Set(locals.flatMap((s) => s.summedDims))],
        locals,
        note: locals.length
          ? `∂${textName(explanation.output)}/∂${textName(name)} = ${locals.map((s) => s.formula).join(' + ')}: ${locals.map((s) => s.words).join('; ')}`
          : null,
      });
    }
  const scalar = total.numel === 1 && terms.every((t) => t.factor !== null);
  const totalValue = scalarValue(total);
  const lhsTex = partial(rootName, name, true);
  const lhsText = partial(rootName, name, false);
  let tex: string;
  let text: string;
  if (v === root || terms.length === 0) {
    tex = `${lhsTex} = ${texTensor(total)}`;
    text = `${lhsText} = ${textTensor(total)}`;
  } else {
    const symTex = terms.map((t) => `${partial(rootName, t.output, true)} \\cdot ${partial(t.output, name, true)}`).join(' + ');
    const symText = terms.map((t) => `${partial(rootName, t.output, false)} · ${partial(t.output, name, false)}`).join(' + ');
    if (scalar && totalValue !== null) {
      const numsTex = terms.map((t) => `${num(scalarValue(t.upstream)!, true)}${num(t.factor!, true)}`).join(' + ');
      const numsText = terms.map((t) => `${num(scalarValue(t.upstream)!, false)}${num(t.factor!, false)}`).join(' + ');
      tex = `\\begin{aligned}${lhsTex} &= ${symTex} \\\\ &= ${numsTex} = ${plainNumber(totalValue, true)}\\end{aligned}`;
      text = `${lhsText} = ${symText} = ${numsText} = ${plainNumber(totalValue, false)}`;
    } else {
      // One use: how its Function made the gradient (G times what, with shapes);
      // several: the contributions that are summed. Then the total, once.
      const one = terms.length === 1 ? terms[0]!.locals.map((s) => s.rule).join(' + ') : '';
      const middleTex = terms.length > 1 ? terms.map((t) => texTensor(t.contribution)).join(' + ') : one ? texRule(one) : '';
      const middleText = terms.length > 1 ? terms.map((t) => textTensor(t.contribution)).join(' + ') : one;
      const shapes = `\\quad {\\scriptstyle ${formatShape(total.shape)}}`;
      tex = `\\begin{aligned}${lhsTex} &= ${symTex}${middleTex ? ` \\\\ &= ${middleTex}` : ''} \\\\ &= ${texTensor(total)}${shapes}\\end{aligned}`;
      text = `${lhsText} = ${symText}${middleText ? ` = ${middleText}` : ''} = ${textTensor(total)} (${formatShape(total.shape)})`;
    }
  }
  return { kind: 'tensor', node: v, root, pass, terms, total, scalar, tex, text };
}
