// Bundles the server's entry points into dist/. npm packages stay external (installed beside the
// bundle); the workspace packages (@guardian/*) are TypeScript source, so they are bundled in.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const here = (path) => join(import.meta.dirname, path);

// The embedded database's host process (src/db/pglite.ts starts it) sits beside the bundles that start it.
const entryPoints = Object.fromEntries(
  ['main', 'users-cli', 'demo', 'db/pglite-host']
    .map((name) => [name.replace(/^.*\//, ''), here(`src/${name}.ts`)])
    .filter(([, file]) => existsSync(file)),
);

/** @type {import('esbuild').Plugin} */
const externalNpmPackages = {
  name: 'external-npm-packages',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@guardian/') ? undefined : { path: args.path, external: true },
    );
  },
};

await build({
  entryPoints,
  outdir: here('dist'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node26',
  sourcemap: true,
  // No shared chunks: config.ts finds the web build relative to its own file, which must sit in dist/.
  plugins: [externalNpmPackages],
  logLevel: 'info',
});
