// How the layout worker is started: a module worker file next to the app. The
// standalone build swaps this module for layoutWorker.inline.ts (the worker's code
// inlined as a blob URL), so the single HTML file needs nothing beside it.
export function createLayoutWorker(): Worker {
  return new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });
}
