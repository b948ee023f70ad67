// Small Trace objects built by hand for unit tests of the player and the scene.
import type { TensorData, Trace } from '../api/types';

export function td(values: unknown, shape: number[] = []): TensorData {
  const numel = shape.reduce((a, b) => a * b, 1);
  return { shape, dtype: 'float32', numel, values, preview: null, stats: null };
}

/**
 * x = torch.tensor(3.0, requires_grad=True); y1 = x + 1; y2 = 2 * x
 * loss = (y1 - y2) ** 2; print(loss); loss.backward()
 */
export function leafTrace(): Trace {
  const tensor = (id: string, name: string | null, value: number, role: 'leaf' | 'intermediate' | 'output', grad_fn: string | null) => ({
    id,
    kind: 'tensor' as const,
    name,
    shape: [],
    dtype: 'float32',
    device: 'cpu',
    requires_grad: true,
    is_leaf: role === 'leaf',
    value: td(value),
    grad: role === 'leaf' ? td(4) : null,
    span: null,
    role,
    grad_fn,
    retains_grad: false,
    label: null,
    hooks: 0,
    iteration: 0,
  });
  const fn = (id: string, op: string, tensor: string | null = null) => ({
    id,
    kind: 'function' as const,
    op,
    span: null,
    saved: [],
    tensor,
    custom: false,
    sequence_nr: null,
    iteration: 0,
  });
  return {
    schema: 'gradtrace.trace/1',
    ok: true,
    error: null,
    stdout: 'tensor(4., grad_fn=<PowBackward0>)\n',
    device: 'cpu',
    variables: { x: 't0', y1: 't1', y2: 't2', loss: 't4' },
    nodes: [
      tensor('t0', 'x', 3, 'leaf', null),
      fn('f0', 'AccumulateGrad', 't0'),
      fn('f1', 'AddBackward0'),
      tensor('t1', 'y1', 4, 'intermediate', 'f1'),
      fn('f2', 'MulBackward0'),
      tensor('t2', 'y2', 6, 'intermediate', 'f2'),
      fn('f3', 'SubBackward0'),
      tensor('t3', null, -2, 'intermediate', 'f3'),
      fn('f4', 'PowBackward0'),
      tensor('t4', 'loss', 4, 'output', 'f4'),
    ],
    edges: [
      { source: 't0', target: 'f0', kind: 'autograd' },
      { source: 'f0', target: 'f1', kind: 'autograd' },
      { source: 'f1', target: 't1', kind: 'autograd' },
      { source: 'f0', target: 'f2', kind: 'autograd' },
      { source: 'f2', target: 't2', kind: 'autograd' },
      { source: 't1', target: 'f3', kind: 'autograd' },
      { source: 't2', target: 'f3', kind: 'autograd' },
      { source: 'f3', target: 't3', kind: 'autograd' },
      { source: 't3', target: 'f4', kind: 'autograd' },
      { source: 'f4', target: 't4', kind: 'autograd' },
    ],
    timeline: [
      { phase: 'forward', node: 't0' },
      { phase: 'forward', node: 't1' },
      { phase: 'forward', node: 't2' },
      { phase: 'forward', node: 't3' },
      { phase: 'forward', node: 't4' },
      { phase: 'print', text: 'tensor(4., grad_fn=<PowBackward0>)\n' },
      { phase: 'backward', node_kind: 'tensor', pass: 0, node: 't4', grad: td(1), hooked: false },
      { phase: 'backward', node_kind: 'function', pass: 0, node: 'f4', grad_inputs: [td(-4)], grad_outputs: [td(1)] },
      { phase: 'backward', node_kind: 'tensor', pass: 0, node: 't3', grad: td(-4), hooked: false },
      { phase: 'backward', node_kind: 'function', pass: 0, node: 'f3', grad_inputs: [td(-4), td(4)], grad_outputs: [td(-4)] },
      { phase: 'backward', node_kind: 'tensor', pass: 0, node: 't2', grad: td(4), hooked: false },
      { phase: 'backward', node_kind: 'function', pass: 0, node: 'f2', grad_inputs: [td(8)], grad_outputs: [td(4)] },
      { phase: 'backward', node_kind: 'tensor', pass: 0, node: 't1', grad: td(-4), hooked: false },
      { phase: 'backward', node_kind: 'function', pass: 0, node: 'f1', grad_inputs: [td(-4)], grad_outputs: [td(-4)] },
      { phase: 'backward', node_kind: 'function', pass: 0, node: 'f0', grad_inputs: [], grad_outputs: [td(4)] },
      { phase: 'backward', node_kind: 'tensor', pass: 0, node: 't0', grad: td(4), hooked: false },
    ],
    passes: [{ index: 0, root: 't4', line: 5, retain_graph: false, kind: 'backward', create_graph: false }],
    truncated: false,
    truncation: [],
    series: [],
    iterations: 1,
    training_steps: 0,
    warnings: [],
    seed: 0,
    version: 'test',
    elapsed_ms: 1,
  };
}

/** The leaf trace with a second backward pass (retain_graph=True on the first). */
export function twoPassTrace(): Trace {
  const t = leafTrace();
  const first = t.timeline.filter((e) => e.phase === 'backward');
  const second = first.map((e) => ({ ...e, pass: 1 }));
  t.timeline = [...t.timeline, { phase: 'print', text: 'tensor(4.)\n' }, ...second];
  t.passes = [
    { index: 0, root: 't4', line: 5, retain_graph: true, kind: 'backward', create_graph: false },
    { index: 1, root: 't4', line: 7, retain_graph: false, kind: 'backward', create_graph: false },
  ];
  return t;
}
