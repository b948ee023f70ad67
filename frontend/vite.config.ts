import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/** KaTeX's CSS names woff2, woff and ttf for each font: every browser we serve reads woff2. */
export function katexWoff2Only(): Plugin {
  return {
    name: 'gradtrace-katex-woff2',
    enforce: 'pre',
    transform(code, id) {
      if (!/katex(\.min)?\.css$/.test(id)) return null;
      return code.replace(/,\s*url\([^)]*\.woff\)\s*format\("woff"\)/g, '').replace(/,\s*url\([^)]*\.ttf\)\s*format\("truetype"\)/g, '');
    },
  };
}

const outDir = fileURLToPath(new URL('../backend/gradtrace/static', import.meta.url));

export default defineConfig({
  plugins: [katexWoff2Only(), svelte()],
  base: '/',
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 900,
    // No inline scripts or data: URLs for scripts: CSP is script-src 'self'.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
  worker: { format: 'es' },
  server: {
    proxy: { '/api': process.env.GRADTRACE_API ?? 'http://127.0.0.1:8000' },
  },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
