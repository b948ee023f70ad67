// Runs the layout in a Web Worker (off the main thread), one request at a time;
// a newer request supersedes an older one.
import type { LayoutInput, LayoutResult } from './layout';
import { createLayoutWorker } from './layoutWorker';

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, { resolve: (r: LayoutResult) => void; reject: (e: Error) => void }>();

function getWorker(): Worker {
  if (worker) return worker;
  worker = createLayoutWorker();
  worker.onmessage = (event: MessageEvent<{ id: number; result?: LayoutResult; error?: string }>) => {
    const { id, result, error } = event.data;
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    if (result) p.resolve(result);
    else p.reject(new Error(error ?? 'layout failed'));
  };
  worker.onerror = (event) => {
    for (const p of pending.values()) p.reject(new Error(event.message || 'layout worker failed'));
    pending.clear();
    worker?.terminate();
    worker = null;
  };
  return worker;
}

export function layoutInWorker(input: LayoutInput): Promise<LayoutResult> {
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    getWorker().postMessage({ id, input }); // copied, not transferred: the caller keeps its arrays
  });
}
