/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';

/**
 * The window loads `dist/index.html` from `file://`. Chromium refuses module scripts and
 * `crossorigin` requests from a `file://` origin, so the build emits one classic IIFE script and
 * this plugin strips `type="module"` / `crossorigin` from the generated tags (and defers the
 * script so it still runs after the DOM is parsed).
 */
function classicScriptForFileUrls(): Plugin {
  return {
    name: 'idea-classic-script',
    apply: 'build',
    enforce: 'post',
    transformIndexHtml(html) {
      return html
        .replace(/<script type="module" crossorigin /g, '<script defer ')
        .replace(/<script type="module" /g, '<script defer ')
        .replace(/ crossorigin(="[^"]*")?/g, '');
    },
  };
}

export default defineConfig({
  base: './',
  plugins: [svelte(), svelteTesting(), classicScriptForFileUrls()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'chrome120',
    modulePreload: false,
    sourcemap: false,
    cssCodeSplit: false,
    chunkSizeWarningLimit: 1024,
    rolldownOptions: {
      // One classic script, no chunks: Chromium loads it from file:// like any local file.
      output: { format: 'iife', codeSplitting: false },
    },
  },
  server: { port: 5173, strictPort: true },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.spec.ts'],
    // jsdom has no canvas: xterm.js and its addons are replaced by recording fakes.
    alias: {
      '@xterm/xterm': fileURLToPath(new URL('./src/test/fakes/xterm.ts', import.meta.url)),
      '@xterm/addon-fit': fileURLToPath(new URL('./src/test/fakes/addon-fit.ts', import.meta.url)),
      '@xterm/addon-webgl': fileURLToPath(new URL('./src/test/fakes/addon-webgl.ts', import.meta.url)),
      '@xterm/addon-search': fileURLToPath(new URL('./src/test/fakes/addon-search.ts', import.meta.url)),
    },
  },
});
