import { describe, expect, it } from 'vitest';
import { formatCompact, formatTensor, knownValues, tensorView } from '../lib/format';
import { scriptJson } from '../share/exporting';
import { decodeTrace, isFloatValues, nestValues } from './binaryTrace';
import type { TensorData } from './types';

/** A binary trace laid out as docs/API.md says: header, head padded to 8, 8-aligned buffers. */
function encode(head: unknown, arrays: Float32Array[] | Float64Array[], { magic = 'GTRB', version = 1 } = {}): ArrayBuffer {
  let json = JSON.stringify(head);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const sizes = arrays.map((a) => Math.ceil(a.byteLength / 8) * 8);
  const total = sizes.reduce((a, b) => a + b, 0);
  const out = new Uint8Array(16 + json.length + total);
  out.set(new TextEncoder().encode(magic), 0);
  const header = new DataView(out.buffer);
  header.setUint32(4, version, true);
  header.setUint32(8, json.length, true);
  header.setUint32(12, total, true);
  out.set(new TextEncoder().encode(json), 16);
  let at = 16 + json.length;
  arrays.forEach((a, i) => {
    out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), at);
    at += sizes[i]!;
  });
  return out.buffer;
}

const matrix = new Float32Array([0.1, -2.5, 3, 4.25, 5, -6]); // 2x3
const vector = new Float64Array([1.5, -2.25, 1e-300]);
const tensor = (shape: number[], values: unknown, dtype = 'float32'): TensorData => ({
  shape,
  dtype,
  numel: shape.reduce((a, b) => a * b, 1),
  values,
  preview: null,
  stats: null,
});

function sample(): ArrayBuffer {
  const head = {
    schema: 'gradtrace.trace/1',
    ok: true,
    nodes: [
      { id: 't0', kind: 'tensor', value: tensor([2, 3], { offset: 0, length: 6, dtype: 'float32' }), grad: null },
      { id: 't1', kind: 'tensor', value: tensor([3], { offset: 24, length: 3, dtype: 'float64' }, 'float64'), grad: tensor([], 2) },
    ],
    timeline: [{ phase: 'backward', grad_inputs: [tensor([2, 3], { offset: 0, length: 6, dtype: 'float32' }), null] }],
  };
  // The second buffer starts at 24: the first's 24 bytes are already a multiple of 8.
  return encode(head, [matrix, vector] as unknown as Float32Array[]);
}

describe('decodeTrace', () => {
  it('gives each float array as a typed view, equal to what was written', () => {
    const trace = decodeTrace(sample()) as unknown as {
      nodes: { value: TensorData; grad: TensorData | null }[];
      timeline: { grad_inputs: TensorData[] }[];
    };
    const m = trace.nodes[0]!.value.values;
    expect(m).toBeInstanceOf(Float32Array);
    expect(Array.from(m as Float32Array)).toEqual(Array.from(matrix));
    const v = trace.nodes[1]!.value.values;
    expect(v).toBeInstanceOf(Float64Array);
    expect(Array.from(v as Float64Array)).toEqual([1.5, -2.25, 1e-300]);
    expect(trace.nodes[1]!.grad!.values).toBe(2); // values kept in the head stay as they are
    expect(Array.from(trace.timeline[0]!.grad_inputs[0]!.values as Float32Array)).toEqual(Array.from(matrix));
  });
  it('views the answer without copying it', () => {
    const buffer = sample();
    const trace = decodeTrace(buffer) as unknown as { nodes: { value: TensorData }[] };
    expect((trace.nodes[0]!.value.values as Float32Array).buffer).toBe(buffer);
  });
  it('writes the arrays back as the nested lists of the JSON trace', () => {
    const trace = decodeTrace(sample());
    const again = JSON.parse(scriptJson(trace)) as { nodes: { value: TensorData }[] };
    expect(again.nodes[0]!.value.values).toEqual([Array.from(matrix.subarray(0, 3)), Array.from(matrix.subarray(3))]);
    expect(again.nodes[1]!.value.values).toEqual([1.5, -2.25, 1e-300]);
    // What is made from them (slice, map) has no shape of its own: a flat list.
    const matrixValues = (trace as unknown as { nodes: { value: TensorData }[] }).nodes[0]!.value.values as Float32Array;
    expect(JSON.stringify(matrixValues.slice(1, 3))).toBe('[-2.5,3]');
  });
  it('refuses what is not a binary trace of this version, or points outside it', () => {
    expect(() => decodeTrace(new ArrayBuffer(4))).toThrow(/too short/);
    expect(() => decodeTrace(encode({}, [], { magic: 'JSON' }))).toThrow(/version/);
    expect(() => decodeTrace(encode({}, [], { version: 2 }))).toThrow(/version/);
    const outside = encode({ value: tensor([4], { offset: 8, length: 4, dtype: 'float32' }) }, [new Float32Array(4)]);
    expect(() => decodeTrace(outside)).toThrow(/outside/);
    const fractional = encode({ value: tensor([2], { offset: 0.5, length: 2, dtype: 'float32' }) }, [new Float32Array(2)]);
    expect(() => decodeTrace(fractional)).toThrow(/outside/);
    // Six numbers for a tensor of three (a complex tensor's pairs): not nested as three.
    const pairs = encode({ value: tensor([3], { offset: 0, length: 6, dtype: 'float32' }, 'complex64') }, [new Float32Array(6)]);
    expect(() => decodeTrace(pairs)).toThrow(/size/);
    const truncated = sample().slice(0, -8);
    expect(() => decodeTrace(truncated)).toThrow(/lengths/);
  });
});

describe('values from the buffers downstream', () => {
  it('nest by shape', () => {
    expect(nestValues(new Float32Array([7]), [])).toBe(7);
    expect(nestValues(new Float32Array([1, 2, 3, 4, 5, 6, 7, 8]), [2, 2, 2])).toEqual([
      [
        [1, 2],
        [3, 4],
      ],
      [
        [5, 6],
        [7, 8],
      ],
    ]);
    expect(isFloatValues([1, 2])).toBe(false);
  });
  it('format as the same tensor in JSON does', () => {
    const trace = decodeTrace(sample()) as unknown as { nodes: { value: TensorData }[] };
    const binary = trace.nodes[0]!.value;
    const json = tensor([2, 3], nestValues(Array.from(matrix), [2, 3]));
    for (const show of [formatTensor, formatCompact, tensorView, knownValues] as ((t: TensorData) => unknown)[]) {
      expect(show(binary)).toEqual(show(json));
    }
    expect(formatTensor(binary)).toBe('[[0.1, -2.5, 3], [4.25, 5, -6]]');
    const column = tensor([6, 1], nestValues(Array.from(matrix), [6, 1]));
    expect(tensorView({ ...binary, shape: [6, 1] })).toEqual(tensorView(column));
  });
});
