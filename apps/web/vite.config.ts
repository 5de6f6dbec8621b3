import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

/**
 * The login page is the first thing anyone loads, so the entry holds only React, the router, the query
 * client and the guards; the shell and every screen are lazy chunks. Vendors are grouped so a screen
 * pulls only what it uses: Radix with the shell, @hello-pangea/dnd (and its redux) with the rules screen,
 * the charts (uPlot and components/charts) with the Reports pages. The Reports pages' chunks are named
 * `report-*` so that scripts/check-login-size.mjs can tell that no other screen loads the charts.
 */
const vendorChunks = [
  {
    name: 'react',
    test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/,
  },
  { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/ },
  {
    name: 'radix',
    test: /node_modules[\\/](radix-ui|@radix-ui|@floating-ui|react-remove-scroll[^\\/]*|react-style-singleton|use-callback-ref|use-sidecar|aria-hidden|get-nonce|detect-node-es|tslib)[\\/]/,
  },
  { name: 'charts', test: /node_modules[\\/]uplot[\\/]/ },
  {
    name: 'dnd',
    test: /node_modules[\\/](@hello-pangea|redux|react-redux|css-box-model|raf-schd|use-memo-one|tiny-invariant|use-sync-external-store|@babel[\\/]runtime)[\\/]/,
  },
];

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    proxy: { '/api': 'http://localhost:8080' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      treeshake: {
        // Building a zod schema has no side effects. Without these two hints every schema of the contract,
        // and zod with it (25 KB gzip), would ship to any page that imports one constant from it.
        moduleSideEffects: [{ test: /packages[\\/]contract[\\/]/, sideEffects: false }],
        manualPureFunctions: ['z'],
      },
      output: {
        // A Reports page's chunk, or one made of their code only (the chart kit, their data, its icons): `report-*`.
        chunkFileNames: (chunk) =>
          (chunk.facadeModuleId ? [chunk.facadeModuleId] : chunk.moduleIds).every((id) =>
            /[\\/]src[\\/](features[\\/]reports|components[\\/]charts|api[\\/]reports)[\\/]|[\\/](uplot|lucide-react)[\\/]/.test(
              id,
            ),
          ) && chunk.moduleIds.length > 0
            ? 'assets/report-[name]-[hash].js'
            : 'assets/[name]-[hash].js',
        codeSplitting: {
          groups: vendorChunks.map((chunk, index) => ({ ...chunk, priority: vendorChunks.length - index })),
        },
      },
    },
  },
});
