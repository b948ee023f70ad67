// The layout worker: one message in (LayoutInput), one message out (LayoutResult).
import { computeLayout, type LayoutInput } from './layout';

self.onmessage = (event: MessageEvent<{ id: number; input: LayoutInput }>) => {
  const { id, input } = event.data;
  try {
    const result = computeLayout(input);
    (self as unknown as Worker).postMessage({ id, result }, [result.x.buffer, result.y.buffer, result.ptStart.buffer, result.pts.buffer]);
  } catch (error) {
    (self as unknown as Worker).postMessage({ id, error: String(error) });
  }
};
