/**
 * Bundles the benchmark's child processes the way apps/server/build.mjs bundles the server (esbuild,
 * ESM, npm packages external, the workspace's TypeScript inlined), so the server runs as plain
 * `node` like `npm start` does: no TypeScript loader in its memory or its CPU profile.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';

// Beside the server's own node_modules, so its external packages resolve as they do for apps/server/dist.
const OUT_DIR = join(
  import.meta.dirname,
  '..',
  '..',
  'apps',
  'server',
  'node_modules',
  '.cache',
  'guardian-bench',
);

const externalNpmPackages: Plugin = {
  name: 'external-npm-packages',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@guardian/') ? undefined : { path: args.path, external: true },
    );
  },
};

/** Optional imports (the answer caches) that may not exist in this version of the server. */
const optionalModules: Plugin = {
  name: 'optional-modules',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /modules\/(banlists\/lru-cache|zones\/zone-list-cache)$/ }, (args) => {
      const file = resolve(dirname(args.importer), `${args.path}.ts`);
      return existsSync(file) ? { path: file } : { path: args.path, namespace: 'missing-module' };
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: 'missing-module' }, () => ({
      contents: 'export {};',
      loader: 'js',
    }));
  },
};

export interface ChildBundles {
  server: string;
  bare: string;
}

export async function buildChildren(): Promise<ChildBundles> {
  mkdirSync(OUT_DIR, { recursive: true });
  await build({
    entryPoints: {
      'server-child': join(import.meta.dirname, 'server-child.ts'),
      'bare-server': join(import.meta.dirname, 'bare-server.ts'),
      // The embedded database's host process, beside the server that starts it (as in apps/server/dist).
      'pglite-host': join(import.meta.dirname, '..', '..', 'apps', 'server', 'src', 'db', 'pglite-host.ts'),
    },
    outdir: OUT_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node26',
    sourcemap: true,
    plugins: [optionalModules, externalNpmPackages],
    logLevel: 'warning',
  });
  return { server: join(OUT_DIR, 'server-child.mjs'), bare: join(OUT_DIR, 'bare-server.mjs') };
}
