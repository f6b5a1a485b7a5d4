// The web console's build: Preact (React's API through preact/compat, for TanStack Query) into
// dist/console-web with content-hashed names under assets/, served at /console by libs/console-web.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: '/console/',
  logLevel: 'warn',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  resolve: {
    alias: {
      // The console's texts and the language rules of the API, read at build time.
      '@console-i18n': here('../../core/src/i18n/console'),
      '@core-language': here('../../core/src/i18n/language.ts'),
      react: 'preact/compat',
      'react-dom': 'preact/compat',
      'react/jsx-runtime': 'preact/jsx-runtime',
    },
  },
  build: {
    outDir: here('../../../dist/console-web'),
    emptyOutDir: true,
    target: 'es2022',
    // No inline script anywhere: the page's CSP allows scripts from this origin only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    sourcemap: false,
    rollupOptions: {
      onwarn(warning, warn) {
        // TanStack Query marks its modules "use client" (React Server Components); meaningless in a bundle.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
