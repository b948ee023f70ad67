// The text on each node, computed once per trace: tensor nodes show their name (or
// label), shape and, when small, value; Function nodes show their op.
import { formatLabelValue, formatShape } from '../lib/format';
import { KIND_FUNCTION, type GraphIndex } from './graphIndex';

export interface NodeLabels {
  title: string[];
  detail: string[];
  value: string[];
  /** Box width in layout units. */
  width: Float32Array;
}

const CHAR = 7.2; // average advance of the 12px UI font, in layout units
export const MIN_WIDTH = 64;
export const MAX_WIDTH = 190;

export function nodeLabels(g: GraphIndex): NodeLabels {
  const title: string[] = [];
  const detail: string[] = [];
  const value: string[] = [];
  const width = new Float32Array(g.n);
  for (let i = 0; i < g.n; i++) {
    const node = g.nodes[i]!;
    if (node.kind === 'function') {
      title.push(node.op);
      detail.push(node.custom ? 'custom Function' : '');
      value.push('');
    } else {
      title.push(g.title(i));
      detail.push(`${formatShape(node.shape)}${node.dtype !== 'float32' ? ' ' + node.dtype : ''}`);
      value.push(formatLabelValue(node.value));
    }
    const chars = Math.max(title[i]!.length + 2, detail[i]!.length + 1, value[i]!.length + 3, 8);
    width[i] = Math.min(MAX_WIDTH, Math.max(g.kind[i] === KIND_FUNCTION ? MIN_WIDTH : MIN_WIDTH + 10, 16 + chars * CHAR));
  }
  return { title, detail, value, width };
}
