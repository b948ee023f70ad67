// The standalone player: one self-contained HTML file (scripts, styles, fonts and
// the layout worker inlined), written next to the app as static/standalone.html.
// gradtrace's Python side and the app's Export menu put a trace into its
// <script id="gradtrace-trace"> and the page plays it from disk, offline.
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';
import { katexWoff2Only } from './vite.config.ts';

const outDir = fileURLToPath(new URL('../backend/gradtrace/static', import.meta.url));

/** The layout worker from a blob URL: layoutWorker.ts → layoutWorker.inline.ts. */
function inlineLayoutWorker(): Plugin {
  return {
    name: 'gradtrace-inline-layout-worker',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || !/\/layoutWorker$/.test(source)) return null;
      return this.resolve(source + '.inline.ts', importer, { ...options, skipSelf: true });
    },
  };
}

export default defineConfig({
  plugins: [inlineLayoutWorker(), katexWoff2Only(), svelte(), viteSingleFile({ removeViteModuleLoader: true })],
  base: './',
  build: {
    outDir,
    emptyOutDir: false,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 4000,
    rollupOptions: { input: fileURLToPath(new URL('./standalone.html', import.meta.url)) },
  },
  // A classic worker: a page opened from disk (an opaque origin) may not start a
  // module worker from a blob URL, but may start a classic one.
  worker: { format: 'iife' },
});
