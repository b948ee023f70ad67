// Layout of the graph, once per trace: d3-dag's Sugiyama (layers, fewer crossings,
// coordinates), top to bottom or left to right. Runs in a Web Worker
// (layout.worker.ts); the result is flat typed arrays. Once per trace and orientation.
import {
  coordGreedy,
  coordQuad,
  decrossTwoLayer,
  graphConnect,
  layeringLongestPath,
  layeringSimplex,
  sugiyama,
  twolayerAgg,
  coordCenter,
  aggMedian,
} from 'd3-dag';
import { LAYER_GAP, NODE_GAP, NODE_HEIGHT, TAG_ROOM, type LayoutResult, type Orientation } from './geometry';

export type { LayoutResult, Orientation };

export interface LayoutInput {
  /** Node count; nodes are 0 .. n-1. */
  n: number;
  /** Width of each node box in layout units. */
  widths: Float32Array;
  edgeSource: Int32Array;
  edgeTarget: Int32Array;
  orientation: Orientation;
}

type SizedGraph = ReturnType<ReturnType<typeof graphConnect>>;
type NodeSizeFn = (node: { data: string }) => readonly [number, number];

/**
 * Sugiyama with settings by size (measured in node on chain-like graphs: 30 nodes
 * 155 ms with the quadratic coordinates, 300 nodes 106 ms medium, 2,000 nodes 122 ms
 * fast): the nicest layout small graphs can afford, the fastest for big ones.
 */
function runSugiyama(n: number, graph: SizedGraph, size: NodeSizeFn): { width: number; height: number } {
  if (n <= 40) return sugiyama().layering(layeringSimplex()).decross(decrossTwoLayer()).coord(coordQuad()).nodeSize(size)(graph);
  if (n <= 400)
    return sugiyama()
      .layering(layeringSimplex())
      .decross(decrossTwoLayer().order(twolayerAgg()).passes(2))
      .coord(coordGreedy())
      .nodeSize(size)(graph);
  if (n <= 1000)
    return sugiyama()
      .layering(layeringLongestPath())
      .decross(decrossTwoLayer().order(twolayerAgg().aggregator(aggMedian)).passes(1))
      .coord(coordGreedy())
      .nodeSize(size)(graph);
  return sugiyama()
    .layering(layeringLongestPath().topDown(true))
    .decross(decrossTwoLayer().order(twolayerAgg()).passes(1))
    .coord(coordCenter())
    .nodeSize(size)(graph);
}

export function computeLayout(input: LayoutInput): LayoutResult {
  const t0 = performance.now();
  const { n, widths, edgeSource, edgeTarget, orientation } = input;
  const lr = orientation === 'LR';
  const links: [string, string][] = [];
  const seen = new Set<number>();
  const linked = new Uint8Array(n);
  for (let e = 0; e < edgeSource.length; e++) {
    const s = edgeSource[e]!;
    const t = edgeTarget[e]!;
    const key = s * n + t;
    if (seen.has(key)) continue; // d3-dag lays out one link per pair; repeats share it
    seen.add(key);
    links.push([String(s), String(t)]);
    linked[s] = linked[t] = 1;
  }
  for (let i = 0; i < n; i++) if (!linked[i]) links.push([String(i), String(i)]);

  const x = new Float32Array(n);
  const y = new Float32Array(n);
  if (n === 0) return { x, y, width: 0, height: 0, ptStart: new Int32Array(edgeSource.length + 1), pts: new Float32Array(0), ms: 0 };

  const graph = graphConnect().single(true)(links);
  // d3-dag lays layers top to bottom; left to right swaps the box's sides, then the axes.
  const size = runSugiyama(n, graph, (node) => {
    const w = widths[Number(node.data)] ?? 100;
    // Left to right, nodes of a layer stack vertically: leave room for the tags above each.
    return lr ? [NODE_HEIGHT + TAG_ROOM + NODE_GAP / 2, w + LAYER_GAP * 1.5] : [w + NODE_GAP, NODE_HEIGHT + LAYER_GAP];
  });
  const width = lr ? size.height : size.width;
  const height = lr ? size.width : size.height;

  for (const node of graph.nodes()) {
    const i = Number(node.data);
    x[i] = lr ? node.y : node.x;
    y[i] = lr ? node.x : node.y;
  }
  // Polylines for each pair, then per edge (repeated pairs share the polyline).
  const byPair = new Map<number, number[]>();
  for (const link of graph.links()) {
    const s = Number(link.source.data);
    const t = Number(link.target.data);
    if (s === t) continue;
    byPair.set(
      s * n + t,
      link.points.flatMap(([px, py]) => (lr ? [py, px] : [px, py])),
    );
  }
  const ptStart = new Int32Array(edgeSource.length + 1);
  const flat: number[] = [];
  for (let e = 0; e < edgeSource.length; e++) {
    const s = edgeSource[e]!;
    const t = edgeTarget[e]!;
    const p = byPair.get(s * n + t) ?? [x[s]!, y[s]!, x[t]!, y[t]!];
    for (const v of p) flat.push(v);
    ptStart[e + 1] = flat.length / 2;
  }
  return { x, y, width, height, ptStart, pts: Float32Array.from(flat), ms: performance.now() - t0 };
}
