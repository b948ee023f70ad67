import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const outDir = fileURLToPath(new URL('../backend/gradtrace/static', import.meta.url));

export default defineConfig({
  plugins: [svelte()],
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
