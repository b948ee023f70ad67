// The local derivative of each kind of autograd Function, in words and in the numbers
// the trace recorded: what backward does to the gradient G it received to make each
// input's gradient (Mul: G times the other input; MatMul: G times the transposed other
// operand, with shapes; a transpose: G transposed back). Inputs and outputs are named
// by variable or source text, or, for a Function with no output tensor, by an
// expression ("lin.weightᵀ"); never by the Function's own name. Pure: no DOM.
import type { BackwardFunctionEvent, TensorData, Trace } from '../api/types';
import type { GraphIndex } from './graphIndex';
import { historyOf } from './leafState';
import { flatNumbers, formatNumber, formatShape, formatTensor, scalarOf, toNumber } from '../lib/format';
import { autogradInputs, outputTensor, plainInputs, slotTargets, tensorOf } from './slots';

export interface LocalDerivative {
  /** The grad_inputs slot (the Function's input position). */
  slot: number;
  /** The tensor node this gradient goes to (the leaf of an AccumulateGrad), or -1. */
  input: number;
  /** The input's name: its variable, its source text, or an expression. */
  name: string;
  /** ∂output/∂input in the names: "w", "1/b", "−a/b²", "3·a²", "1 − tanh²(b)". */
  formula: string;
  /** The same in words and numbers: "the other input, w = 2". */
  words: string;
  /** How G (what the Function received) becomes this input's gradient: "G·wᵀ: [2×4]·[4×3] → [2×3]". */
  rule: string;
  /** The local derivative as one number, when input and output are one number each. */
  value: number | null;
  /** Dimensions of G summed because the input was broadcast (elementwise ops only). */
  summedDims: number[];
}

export interface FunctionExplanation {
  op: string;
  /** What the Function computed, as a formula names it: its output tensor, or an expression. */
  output: string;
  /** One sentence on what this Function's backward does. */
  summary: string;
  /** One entry per input slot that got a gradient. */
  slots: LocalDerivative[];
}

/** 'MulBackward0' → 'Mul'. */
export function baseOp(op: string): string {
  return op.replace(/Backward\d*$/, '');
}

/** torch's name for the tensor saved for each input position, per Function kind. */
const SAVED_SLOTS: Record<string, string[]> = {
  Mul: ['self', 'other'],
  Div: ['self', 'other'],
  Mm: ['self', 'mat2'],
  Bmm: ['self', 'mat2'],
  Addmm: ['self', 'mat1', 'mat2'],
  Mv: ['self', 'vec'],
  Dot: ['self', 'tensor'],
  Pow: ['self', 'exponent'],
  Log: ['self'],
};

const ELEMENTWISE = new Set(['Add', 'Sub', 'Rsub', 'Mul', 'Div', 'Pow', 'Where', 'Maximum', 'Minimum']);
const TRANSPOSES = new Set(['T', 'Transpose', 'Permute']);
const RESHAPES = new Set(['View', 'Reshape', 'ReshapeAlias', 'UnsafeView', 'Squeeze', 'Unsqueeze', 'Flatten']);
const PICKS = new Set(['Select', 'Index', 'Slice', 'Narrow', 'Gather', 'IndexSelect']);
const MATMULS = new Set(['Mm', 'MatMul', 'Matmul', 'Bmm', 'Addmm', 'Mv', 'Dot']);

/** Dimensions of `from` summed away to give `to` (broadcasting, aligned on the right). */
export function summedDims(from: readonly number[], to: readonly number[]): number[] {
  const dims: number[] = [];
  const offset = from.length - to.length;
  for (let d = 0; d < from.length; d++) {
    const t = d - offset;
    const size = from[d]!;
    if (t < 0 ? size >= 1 && from.length > to.length : to[t] === 1 && size !== 1) dims.push(d);
  }
  return dims;
}

/** A number with a real minus sign. */
function fmt(x: number): string {
  return formatNumber(x).replace(/^-/, '−');
}

/** A number as a factor: negative ones in parentheses. */
function signed(x: number): string {
  return x < 0 ? `(${fmt(x)})` : fmt(x);
}

/** A tensor in a line (small ones in full), or "?" when the trace has no values. */
function show(t: TensorData | null): string {
  if (!t) return '?';
  return formatTensor(t, 6).replace(/-(?=[\d.]|inf)/g, '−');
}

function scalar(t: TensorData | null): number | null {
  if (!t || t.numel !== 1) return null;
  const s = scalarOf(t);
  return s === null ? null : toNumber(s);
}

function shape(t: TensorData | null): string {
  return t ? `[${formatShape(t.shape)}]` : '[?]';
}

/** A name as a factor of a formula: parenthesised unless it is one word. */
function factor(name: string): string {
  const plain = /^[\p{L}_][\p{L}\p{N}_.ᵀ]*$/u.test(name) || /^[\d.]+$/.test(name) || /^\([^()]*\)$/.test(name);
  return plain ? name : `(${name})`;
}

const SUPERSCRIPT: Record<string, string> = {
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
  '-': '⁻',
  '−': '⁻',
};

/** x raised to p, as people write it: x², x⁻¹, x^0.5. */
function power(x: string, p: number): string {
  if (p === 1) return x;
  const s = formatNumber(p);
  const sup = [...s].every((c) => c in SUPERSCRIPT) ? [...s].map((c) => SUPERSCRIPT[c]).join('') : `^${s.replace(/^-/, '−')}`;
  return `${factor(x)}${sup}`;
}

/** A name transposed: wᵀ, and (wᵀ)ᵀ = w. */
function transposed(name: string): string {
  return name.endsWith('ᵀ') && !name.endsWith(')ᵀ') ? name.slice(0, -1) : `${factor(name)}ᵀ`;
}

/** What the step knows about each input position and the output. */
interface Step {
  base: string;
  op: string;
  names: string[];
  values: (TensorData | null)[];
  grads: (TensorData | null)[];
  up: TensorData | null;
  result: TensorData | null;
  output: string;
}

/** The name of a graph node as an operand: a tensor's title, or an expression for a Function. */
function nodeName(g: GraphIndex, i: number, depth: number): string {
  const t = tensorOf(g, i);
  if (g.nodes[t]?.kind === 'tensor') return g.longTitle(t);
  const out = outputTensor(g, t);
  if (out >= 0) return g.longTitle(out);
  return depth > 2 ? inWords(baseOp(g.title(t))) : expression(g, t, operandNames(g, t, null, depth + 1));
}

/** The Function's name in words, for a fallback: 'LogSoftmax' → 'log softmax'. */
function inWords(base: string): string {
  return base.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

/** Names of f's inputs by position: from the event's slots, the saved tensors, then plain inputs. */
function operandNames(g: GraphIndex, f: number, event: BackwardFunctionEvent | null, depth: number): string[] {
  const node = g.nodes[f];
  if (!node || node.kind !== 'function') return [];
  if (!event) return [...autogradInputs(g, f), ...plainInputs(g, f)].map((i) => nodeName(g, i, depth));
  const targets = slotTargets(g, f, event);
  const savedNames = SAVED_SLOTS[baseOp(node.op)] ?? [];
  const plain = plainInputs(g, f);
  return targets.map((t, j) => {
    if (t >= 0) return nodeName(g, t, depth);
    const saved = node.saved.find((s) => s.name === savedNames[j]);
    if (saved?.node) {
      const i = g.byId.get(saved.node);
      if (i !== undefined) return nodeName(g, i, depth);
    }
    if (saved?.value && saved.value.numel === 1) return show(saved.value);
    const next = plain.shift();
    return next === undefined ? 'c' : nodeName(g, next, depth);
  });
}

/** What a Function computed, written with its inputs' names. */
function expression(g: GraphIndex, f: number, names: string[]): string {
  const op = g.title(f);
  const base = baseOp(op);
  const [a = '?', b = '?', c = '?'] = names;
  switch (base) {
    case 'Mul':
      return `${factor(a)}·${factor(b)}`;
    case 'Div':
      return `${factor(a)}/${factor(b)}`;
    case 'Add':
      return `${a} + ${b}`;
    case 'Sub':
      return `${a} − ${factor(b)}`;
    case 'Neg':
      return `−${factor(a)}`;
    case 'Pow':
      return `${factor(a)}^${factor(b)}`;
    case 'Mm':
    case 'MatMul':
    case 'Matmul':
    case 'Bmm':
    case 'Mv':
    case 'Dot':
      return `${factor(a)} @ ${factor(b)}`;
    case 'Addmm':
      return `${a} + ${factor(b)} @ ${factor(c)}`;
    case 'T':
    case 'Transpose':
    case 'Permute':
      return transposed(a);
    case 'Sigmoid':
      return `σ(${a})`;
    default:
      if (RESHAPES.has(base)) return `reshape(${a})`;
      if (PICKS.has(base)) return `${factor(a)}[…]`;
      return `${inWords(base).replace(/ /g, '_')}(${names.join(', ')})`;
  }
}

/** What `f`'s output is called in a formula: its tensor's name, or an expression of its inputs. */
export function outputName(g: GraphIndex, f: number, event: BackwardFunctionEvent | null = null): string {
  const out = outputTensor(g, f);
  if (out >= 0) return g.longTitle(out);
  const leaf = tensorOf(g, f);
  if (leaf !== f) return `${g.longTitle(leaf)}.grad`;
  return expression(g, f, operandNames(g, f, event, 1));
}

/** The exponent n of x**n, from the recorded numbers: ∂y/∂x = n·y/x, so n = (∂y/∂x)·x/y. */
function exponentOf(x: TensorData | null, y: TensorData | null, gin: TensorData | null, gout: TensorData | null): number | null {
  if (!x || !y || !gin || !gout) return null;
  const [xs, ys, gi, go] = [flatNumbers(x), flatNumbers(y), flatNumbers(gin), flatNumbers(gout)];
  const goAt = (k: number) => (go.length === 1 ? go[0]! : go[k]!);
  for (let k = 0; k < xs.length && k < ys.length && k < gi.length; k++) {
    if (xs[k] === 0 || ys[k] === 0 || !goAt(k) || !Number.isFinite(ys[k]!)) continue;
    const n = ((gi[k]! / goAt(k)) * xs[k]!) / ys[k]!;
    const whole = Math.round(n);
    return Math.abs(n - whole) < 1e-4 * Math.max(1, Math.abs(n)) ? whole : Number(n.toPrecision(4));
  }
  return null;
}

type Described = Pick<LocalDerivative, 'formula' | 'words'> & { rule?: string };

/** The local derivative of input `j`, by Function kind. */
function describe(s: Step, j: number): Described {
  const x = s.names[j] ?? '?';
  const xv = s.values[j] ?? null;
  const other = 1 - j;
  const y = s.result;
  const grad = s.grads[j] ?? null;
  const sx = scalar(xv);
  const sy = scalar(y);
  switch (s.base) {
    case 'Mul': {
      const name = s.names[other] ?? '?';
      const value = show(s.values[other] ?? null);
      return { formula: name, words: name === value ? `the other input, the constant ${name}` : `the other input, ${name} = ${value}` };
    }
    case 'Div': {
      const [a, b] = [s.names[0] ?? '?', s.names[1] ?? '?'];
      const [av, bv] = [scalar(s.values[0] ?? null), scalar(s.values[1] ?? null)];
      if (j === 0)
        return {
          formula: `1/${factor(b)}`,
          words: `one over the divisor: 1/${bv === null ? show(s.values[1] ?? null) : `${fmt(bv)} = ${fmt(1 / bv)}`}`,
        };
      return {
        formula: `−${factor(a)}/${power(b, 2)}`,
        words: `minus the dividend over the divisor squared: ${av !== null && bv !== null ? `−${signed(av)}/${signed(bv)}² = ${fmt(-av / (bv * bv))}` : `${a} = ${show(s.values[0] ?? null)}, ${b} = ${show(s.values[1] ?? null)}`}`,
      };
    }
    case 'Pow': {
      if (s.op === 'PowBackward0') {
        const n = exponentOf(xv, y, grad, s.up);
        if (n === null) return { formula: `n·${factor(x)}ⁿ⁻¹`, words: `n·xⁿ⁻¹ (the trace does not give n), ${x} = ${show(xv)}` };
        const formula = n === 2 ? `2·${factor(x)}` : `${fmt(n)}·${power(x, n - 1)}`;
        const numbers = sx !== null ? `: ${fmt(n)}·${power(signed(sx), n - 1)} = ${fmt(n * Math.pow(sx, n - 1))}` : `, ${x} = ${show(xv)}`;
        return { formula, words: `n·xⁿ⁻¹ with n = ${fmt(n)}${numbers}` };
      }
      const [a, b] = [s.names[0] ?? '?', s.names[1] ?? '?'];
      if (j === 0)
        return {
          formula: `${factor(b)}·${factor(a)}^(${b}−1)`,
          words: `the exponent times the base to the exponent minus one: ${b} = ${show(s.values[1] ?? null)}, ${a} = ${show(s.values[0] ?? null)}`,
        };
      return {
        formula: `${factor(a)}^${factor(b)}·ln ${factor(a)}`,
        words: `the power times the log of the base: ${a} = ${show(s.values[0] ?? null)}`,
      };
    }
    case 'Add':
      return { formula: '1', words: 'one: an addition passes the gradient through unchanged', rule: 'G' };
    case 'Sub':
      return j === 0
        ? { formula: '1', words: 'one: the first operand of a subtraction gets the gradient unchanged', rule: 'G' }
        : { formula: '−1', words: 'minus one: the subtracted operand gets the gradient negated', rule: '−G' };
    case 'Rsub':
      return j === 0
        ? { formula: '−1', words: 'minus one: the subtracted operand gets the gradient negated', rule: '−G' }
        : { formula: '1', words: 'one: the gradient passes through unchanged', rule: 'G' };
    case 'Neg':
      return { formula: '−1', words: 'minus one: negation flips the gradient’s sign', rule: '−G' };
    case 'Tanh':
      return {
        formula: `1 − tanh²(${x})`,
        words: `1 − tanh², from the saved output${sy !== null ? `: 1 − ${fmt(sy)}² = ${fmt(1 - sy * sy)}` : ` tanh(${x}) = ${show(y)}`}`,
      };
    case 'Sigmoid':
      return {
        formula: `σ(${x})·(1 − σ(${x}))`,
        words: `σ(1 − σ), from the saved output${sy !== null ? `: ${fmt(sy)}·(1 − ${fmt(sy)}) = ${fmt(sy * (1 - sy))}` : ` σ(${x}) = ${show(y)}`}`,
      };
    case 'Relu': {
      const mask = y ? flatNumbers(y).map((v) => (v > 0 ? 1 : 0)) : [];
      const numbers =
        sy !== null
          ? `: ${x} ${sy > 0 ? `= ${fmt(sy)} > 0, so 1` : '≤ 0, so 0'}`
          : mask.length && mask.length <= 8
            ? `: [${mask.join(', ')}]`
            : y
              ? `: ${mask.filter((m) => m === 1).length} of ${mask.length} elements pass`
              : '';
      return { formula: `1 where ${x} > 0, else 0`, words: `1 where the input was positive, else 0${numbers}` };
    }
    case 'Exp':
      return {
        formula: `e^${factor(x)}`,
        words: `eˣ itself, the saved output${sx !== null && sy !== null ? `: e^${fmt(sx)} = ${fmt(sy)}` : ` = ${show(y)}`}`,
      };
    case 'Log':
      return {
        formula: `1/${factor(x)}`,
        words: `one over the input${sx !== null ? `: 1/${fmt(sx)} = ${fmt(1 / sx)}` : `, ${x} = ${show(xv)}`}`,
      };
    case 'Sum':
      return {
        formula: '1',
        words: `one for every element: the gradient is expanded back to ${shape(grad)}`,
        rule: `G expanded to ${shape(grad)}`,
      };
    case 'Mean': {
      const n = grad && s.up ? grad.numel / Math.max(1, s.up.numel) : null;
      return {
        formula: n === null ? '1/n' : `1/${n}`,
        words: `1/n with n = ${n ?? '?'} elements averaged: the gradient is expanded back to ${shape(grad)} and divided by ${n ?? 'n'}`,
        rule: `G/${n ?? 'n'} expanded to ${shape(grad)}`,
      };
    }
    case 'Clone':
      return { formula: '1', words: 'one: a copy passes the gradient through unchanged', rule: 'G' };
    case 'Expand': {
      const dims = s.up && grad ? summedDims(s.up.shape, grad.shape) : [];
      return {
        formula: '1',
        words: `the gradient summed over the expanded dimension${dims.length === 1 ? '' : 's'} ${dims.join(', ')}: ${shape(s.up)} → ${shape(grad)}`,
        rule: `G summed over dim ${dims.join(', ')}`,
      };
    }
    case 'AccumulateGrad':
      return { formula: '1', words: 'adds what arrived to .grad', rule: 'G' };
    default:
      return shaped(s, j);
  }
}

/** Functions that move elements (transposes, reshapes, picks, joins, products) or the fallback. */
function shaped(s: Step, j: number): Described {
  const grad = s.grads[j] ?? null;
  const x = s.names[j] ?? '?';
  if (TRANSPOSES.has(s.base)) {
    const how = s.base === 'Permute' ? 'permuted back' : 'transposed back';
    return {
      formula: `G${s.base === 'Permute' ? ' permuted back' : 'ᵀ'}`,
      words: `the gradient ${how}: ${shape(s.up)} → ${shape(grad)} (elements move, nothing is summed)`,
      rule: `G ${how}: ${shape(s.up)} → ${shape(grad)}`,
    };
  }
  if (RESHAPES.has(s.base))
    return {
      formula: 'G reshaped',
      words: `the gradient reshaped back: ${shape(s.up)} → ${shape(grad)}`,
      rule: `G reshaped: ${shape(s.up)} → ${shape(grad)}`,
    };
  if (PICKS.has(s.base))
    return {
      formula: '1 at the picked elements, else 0',
      words: `the gradient scattered back into zeros of shape ${shape(grad)}: the picked elements get it, the others 0`,
      rule: `G scattered into zeros ${shape(grad)}`,
    };
  if (s.base === 'Cat' || s.base === 'Stack') {
    return {
      formula: '1 on its part',
      words: `a split: ${x} gets its own part of the gradient, ${shape(grad)} of ${shape(s.up)}`,
      rule: `its part of G: ${shape(grad)} of ${shape(s.up)}`,
    };
  }
  if (MATMULS.has(s.base)) return product(s, j);
  if (s.base === 'AccumulateGrad') return { formula: '1', words: 'adds what arrived to .grad', rule: 'G' };
  const node = `${s.op}`;
  return {
    formula: `∂${factor(s.output)}/∂${factor(x)}`,
    words: `${node} applies PyTorch’s built-in derivative of ${inWords(s.base)}; the numbers are what it returned`,
    rule: `${node}(G)`,
  };
}

/** Matrix products: the gradient times the transposed other operand, with shapes. */
function product(s: Step, j: number): Described {
  const grad = s.grads[j] ?? null;
  const offset = s.base === 'Addmm' ? 1 : 0;
  if (s.base === 'Addmm' && j === 0)
    return { formula: '1', words: 'one: the added term gets the gradient (summed over the rows it was broadcast to)', rule: 'G' };
  const left = j === offset;
  const otherAt = left ? offset + 1 : offset;
  const other = s.names[otherAt] ?? '?';
  const otherShape = s.values[otherAt] ?? s.grads[otherAt] ?? null;
  const g = shape(s.up);
  if (s.base === 'Mv' && left)
    return {
      formula: `G ⊗ ${other}`,
      words: `the outer product of the gradient with the vector ${other}: ${g}⊗${shape(otherShape)} → ${shape(grad)}`,
      rule: `G ⊗ ${other}: ${g}⊗${shape(otherShape)} → ${shape(grad)}`,
    };
  if (s.base === 'Dot') return { formula: other, words: `the other vector, ${other} = ${show(s.values[otherAt] ?? null)}` };
  const flipped = otherShape ? `[${formatShape([...otherShape.shape].reverse())}]` : '[?]';
  const otherT = transposed(other);
  if (left) {
    return {
      formula: otherT,
      words: `the transposed other operand: G·${otherT}: ${g}·${flipped} → ${shape(grad)}`,
      rule: `G·${otherT}: ${g}·${flipped} → ${shape(grad)}`,
    };
  }
  return {
    formula: otherT,
    words: `the transposed other operand: ${otherT}·G: ${flipped}·${g} → ${shape(grad)}`,
    rule: `${otherT}·G: ${flipped}·${g} → ${shape(grad)}`,
  };
}

const SUMMARIES: Record<string, string> = {
  Mul: 'a product: each input’s gradient is G times the other input',
  Div: 'a quotient a/b: a gets G/b, b gets −G·a/b²',
  Pow: 'a power xⁿ: the gradient is G·n·xⁿ⁻¹',
  Add: 'a sum: each input gets G unchanged',
  Sub: 'a difference: the first input gets G, the second −G',
  Neg: 'a negation: the input gets −G',
  Tanh: 'tanh: the gradient is G·(1 − tanh²), from the saved output',
  Sigmoid: 'the sigmoid: the gradient is G·σ(1 − σ), from the saved output',
  Relu: 'ReLU: G passes where the input was positive, 0 elsewhere',
  Exp: 'exp: the gradient is G·eˣ, the saved output',
  Log: 'log: the gradient is G/x',
  Sum: 'a sum of elements: every element gets G',
  Mean: 'a mean of n elements: every element gets G/n',
  Clone: 'a copy: G passes through',
  Expand: 'an expansion: G is summed back over the expanded dimensions',
  Cat: 'a concatenation: G is split back into the inputs’ parts',
  Stack: 'a stack: G is split back into the inputs’ slices',
  AccumulateGrad: 'where a leaf receives its gradient: it adds G to .grad (it adds, it does not replace)',
};

function summary(s: Step, custom: boolean): string {
  const what = custom
    ? 'a user-written autograd.Function: the engine runs your backward() method, and the numbers are what it returned'
    : (SUMMARIES[s.base] ??
      (TRANSPOSES.has(s.base)
        ? 'a transpose: G is transposed back (elements move, nothing is summed)'
        : RESHAPES.has(s.base)
          ? 'a reshape: G is reshaped back to the input’s shape'
          : PICKS.has(s.base)
            ? 'picking elements: G is scattered back into zeros of the input’s shape'
            : MATMULS.has(s.base)
              ? 'a matrix product A·B: A gets G·Bᵀ and B gets Aᵀ·G'
              : `${inWords(s.base)}: PyTorch’s built-in derivative, in the numbers it returned`));
  return `${s.op} (${s.output}) is ${what}.`;
}

/** The local derivative of each input of Function `f` at its backward event `event`. */
export function explainFunction(trace: Trace, g: GraphIndex, f: number, event: BackwardFunctionEvent, cursor: number): FunctionExplanation {
  const node = g.nodes[f];
  const op = node && node.kind === 'function' ? node.op : g.title(f);
  const base = baseOp(op);
  const history = historyOf(trace, g);
  const valueOf = (i: number): TensorData | null => {
    const t = tensorOf(g, i);
    return g.nodes[t]?.kind === 'tensor' ? history.valueAt(t, cursor) : null;
  };
  const targets = slotTargets(g, f, event);
  const saved = node && node.kind === 'function' ? node.saved : [];
  const savedValue = (name: string | undefined): TensorData | null => {
    const s = saved.find((x) => x.name === name);
    if (!s) return null;
    const i = s.node ? g.byId.get(s.node) : undefined;
    return i !== undefined ? valueOf(i) : (s.value ?? null);
  };
  const values = event.grad_inputs.map((_, j) => savedValue(SAVED_SLOTS[base]?.[j]) ?? (targets[j]! >= 0 ? valueOf(targets[j]!) : null));
  const out = outputTensor(g, f);
  const step: Step = {
    base,
    op,
    names: operandNames(g, f, event, 1),
    values,
    grads: event.grad_inputs,
    up: event.grad_outputs.find((t) => t !== null) ?? null,
    result: out >= 0 ? valueOf(out) : savedValue('result'),
    output: outputName(g, f, event),
  };
  const custom = !!(node && node.kind === 'function' && node.custom);
  const slots: LocalDerivative[] = [];
  event.grad_inputs.forEach((grad, j) => {
    const t = targets[j]!;
    if (!grad || t < 0) return;
    const d: Described = custom
      ? {
          formula: 'your backward()',
          words: `the engine called your backward() with G; this is what it returned for ${step.names[j] ?? 'this input'}`,
          rule: 'backward(G)',
        }
      : describe(step, j);
    const summed = ELEMENTWISE.has(base) || (base === 'Addmm' && j === 0) ? broadcastDims(step.up, grad) : [];
    const gin = scalar(grad);
    const gout = scalar(step.up);
    const rule = d.rule ?? `G ⊙ ${factor(d.formula)}`;
    slots.push({
      slot: j,
      input: tensorOf(g, t),
      name: step.names[j] ?? '?',
      formula: d.formula,
      words: summed.length ? `${d.words}; ${summedNote(summed, step.up!)}` : d.words,
      rule: summed.length ? `${rule}, summed over dim ${summed.join(', ')} → ${shape(grad)}` : rule,
      value: gin !== null && gout !== null && gout !== 0 && grad.numel === 1 && (step.up?.numel ?? 0) === 1 ? gin / gout : null,
      summedDims: summed,
    });
  });
  return { op, output: step.output, summary: summary(step, custom), slots };
}

/** The dimensions a broadcast input's gradient was summed over (none when the shapes agree). */
function broadcastDims(up: TensorData | null, grad: TensorData): number[] {
  if (!up || up.shape.length === 0 || up.shape.join() === grad.shape.join()) return [];
  return summedDims(up.shape, grad.shape);
}

function summedNote(dims: number[], up: TensorData): string {
  return `it was broadcast, so the gradient is summed over dimension${dims.length > 1 ? 's' : ''} ${dims.join(', ')} of ${formatShape(up.shape)}`;
}
