// The standalone page's layout worker: its code inlined in the bundle (blob URL).
import LayoutWorker from './layout.worker.ts?worker&inline';

export function createLayoutWorker(): Worker {
  return new LayoutWorker();
}
