import { defineConfig } from 'vite';

// Built by `npm install` (scripts/build-dashboard.mjs) into dist/, served by the API at /dashboard.
// React's JSX is compiled by Vite's own transformer (automatic runtime); no plugin needed.
export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  base: '/dashboard/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // Every asset a file under assets/ (the icon too): the content security policy allows no data: addresses.
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 2000,
    rollupOptions: {
      // Libraries' "use client" directives mean nothing in a plain SPA bundle.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  oxc: { jsx: { runtime: 'automatic' } },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});
