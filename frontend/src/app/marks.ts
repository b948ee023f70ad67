// Per-node marks the app adds to the drawn graph: the gradient check's verdicts, and the
// nodes made by the source under the editor's pointer.
import type { GradCheck } from '../api/client';
import type { GraphIndex } from '../model/graphIndex';
import type { Stage } from '../stage/stage';

/** Per drawn node: 1 the gradient check agrees, -1 it disagrees (any leaf drawn there), 0 not checked; null without a check. */
export function checkVerdicts(stage: Stage | null, check: GradCheck | null): Int8Array | null {
  if (!stage || !check) return null;
  const out = new Int8Array(stage.graph.n);
  for (const leaf of check.leaves ?? []) {
    const j = stage.drawnIndex(leaf.node);
    if (j >= 0) out[j] = leaf.agree ? (out[j] === -1 ? -1 : 1) : -1;
  }
  return out;
}

/** 1 per node whose source span holds the position (counted as the spans count), or null when none does. */
export function nodesAt(graph: GraphIndex | null, at: { line: number; col: number } | null): Uint8Array | null {
  if (!at || !graph) return null;
  const { line, col } = at;
  const hit = new Uint8Array(graph.n);
  let any = false;
  graph.nodes.forEach((node, i) => {
    const s = node.span;
    if (!s) return;
    const after = line > s.line || (line === s.line && col >= s.col);
    const before = line < s.end_line || (line === s.end_line && col < s.end_col);
    if (after && before) {
      hit[i] = 1;
      any = true;
    }
  });
  return any ? hit : null;
}
