// The binary trace (docs/API.md, "Binary traces"): a JSON head whose float arrays lie in
// buffers after it. Each becomes a Float32Array (or Float64Array) view over the answer:
// no number is parsed. Such values are flat, row-major; their TensorData's shape says how
// they nest, and JSON.stringify writes them as the nested lists the JSON trace carries.
import type { components } from './schema';
import type { Trace } from './types';

export const BINARY_TRACE = 'application/vnd.gradtrace.trace+binary';

export type BufferRef = components['schemas']['BufferRef'];
/** A tensor's values read from the buffers (finite floats only). */
export type FloatValues = Float32Array | Float64Array;

const MAGIC = 0x42525447; // "GTRB", little-endian
const VERSION = 1;
const HEADER_BYTES = 16;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function isFloatValues(values: unknown): values is FloatValues {
  return values instanceof Float32Array || values instanceof Float64Array;
}

/** Flat row-major numbers as nested lists of `shape` (a number for a scalar). */
export function nestValues(flat: ArrayLike<number>, shape: readonly number[]): unknown {
  if (shape.length === 0) return flat[0];
  const build = (dim: number, start: number): unknown[] => {
    const n = shape[dim]!;
    if (dim === shape.length - 1) return Array.from({ length: n }, (_, i) => flat[start + i]!);
    const step = shape.slice(dim + 1).reduce((a, b) => a * b, 1);
    return Array.from({ length: n }, (_, i) => build(dim + 1, start + i * step));
  };
  return build(0, 0);
}

function isRef(value: unknown): value is BufferRef {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const r = value as Partial<BufferRef>;
  return typeof r.offset === 'number' && typeof r.length === 'number' && (r.dtype === 'float32' || r.dtype === 'float64');
}

/** A binary trace's float32 values: written back out (a saved trace, the standalone
 * export) as the nested lists the JSON trace has. */
class Float32Values extends Float32Array {
  toJSON(): unknown {
    return nestValues(this, shapes.get(this) ?? [this.length]);
  }
}

class Float64Values extends Float64Array {
  toJSON(): unknown {
    return nestValues(this, shapes.get(this) ?? [this.length]);
  }
}

const shapes = new WeakMap<FloatValues, readonly number[]>();

function view(buffer: ArrayBuffer, start: number, end: number, ref: BufferRef): FloatValues {
  const width = ref.dtype === 'float64' ? 8 : 4;
  const at = start + ref.offset;
  if (
    !Number.isInteger(ref.offset) ||
    !Number.isInteger(ref.length) ||
    ref.offset < 0 ||
    ref.length < 0 ||
    at % width !== 0 ||
    at + ref.length * width > end
  ) {
    throw new Error('a binary trace refers outside its buffers');
  }
  if (LITTLE_ENDIAN) return ref.dtype === 'float64' ? new Float64Values(buffer, at, ref.length) : new Float32Values(buffer, at, ref.length);
  // A big-endian machine reads each number the long way.
  const data = new DataView(buffer, at, ref.length * width);
  const out = ref.dtype === 'float64' ? new Float64Values(ref.length) : new Float32Values(ref.length);
  for (let i = 0; i < ref.length; i++) out[i] = width === 8 ? data.getFloat64(i * 8, true) : data.getFloat32(i * 4, true);
  return out;
}

/** The Trace in a binary answer, its float arrays as views over `buffer`. */
export function decodeTrace(buffer: ArrayBuffer): Trace {
  if (buffer.byteLength < HEADER_BYTES) throw new Error('not a binary trace: too short');
  const header = new DataView(buffer, 0, HEADER_BYTES);
  if (header.getUint32(0, true) !== MAGIC || header.getUint32(4, true) !== VERSION) throw new Error('not a binary trace of this version');
  const headBytes = header.getUint32(8, true);
  const start = HEADER_BYTES + headBytes;
  const end = start + header.getUint32(12, true);
  if (end !== buffer.byteLength) throw new Error("a binary trace's lengths do not add up");
  const head: unknown = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, HEADER_BYTES, headBytes)));
  const walk = (value: object): void => {
    if (Array.isArray(value)) {
      for (const item of value) if (item !== null && typeof item === 'object') walk(item);
      return;
    }
    const record = value as Record<string, unknown>;
    if ('numel' in record && 'values' in record) {
      // A TensorData: nothing else in it refers to the buffers.
      const ref = record.values;
      if (isRef(ref)) {
        // One number per element, nested by the shape: anything else would show numbers
        // at the wrong places (a complex tensor's pairs are never buffers).
        if (ref.length !== record.numel) throw new Error("a binary trace's values do not match their tensor's size");
        const values = view(buffer, start, end, ref);
        shapes.set(values, Array.isArray(record.shape) ? (record.shape as number[]) : [values.length]);
        record.values = values;
      }
      return;
    }
    for (const key in record) {
      const item = record[key];
      if (item !== null && typeof item === 'object') walk(item);
    }
  };
  if (head !== null && typeof head === 'object') walk(head);
  return head as Trace;
}
