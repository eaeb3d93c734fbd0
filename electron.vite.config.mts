// Builds main (Electron entry, the core's utility-process entry, headless entry), preload and renderer into out/.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

const { version } = JSON.parse(readFileSync(resolve(import.meta.dirname, 'package.json'), 'utf8')) as {
  version: string;
};

export default defineConfig({
  main: {
    define: { __MAESTRO_VERSION__: JSON.stringify(version) },
    build: {
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src-main/index.ts'),
          'core-process': resolve(import.meta.dirname, 'src-main/core-process.ts'),
          headless: resolve(import.meta.dirname, 'src-main/headless.ts'),
          // The checkpoints' object worker thread (src-main/checkpoints/object-writer.ts loads it beside the entries).
          'object-worker': resolve(import.meta.dirname, 'src-main/checkpoints/object-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: { input: { index: resolve(import.meta.dirname, 'src-preload/index.ts') } },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src-renderer'),
    build: {
      rollupOptions: { input: { index: resolve(import.meta.dirname, 'src-renderer/index.html') } },
    },
    plugins: [react()],
  },
});
