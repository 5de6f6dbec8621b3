/* global console, process */
// The login page is everyone's first load: its JS and CSS must stay under 150 KB gzip.
// Run after `vite build`: it follows index.html's scripts and styles, then the lazy login chunk, through
// their static imports, and sums the gzip size of every file once.
// Then the charts (the `charts` chunk: uPlot and components/charts, vite.config.ts) must load with the
// Reports pages only (`report-*` chunks): not with the login page, nor through any other chunk's static
// imports (a screen's chunk, the shell, the entry).
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BUDGET_BYTES = 150 * 1024;
const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');

/** The files `file` loads through its static imports, itself included, added to `files`. */
const staticClosure = (file, files = new Set()) => {
  if (files.has(file)) return files;
  files.add(file);
  if (!file.endsWith('.js')) return files;
  const code = readFileSync(join(dist, file), 'utf8');
  for (const [, imported] of code.matchAll(/(?:from|import)\s*["']\.\/([^"']+)["']/g)) {
    staticClosure(join(dirname(file), imported), files);
  }
  return files;
};
const files = new Set();
const visit = (file) => staticClosure(file, files);

for (const [, asset] of html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)) visit(asset);
const loginChunk = readdirSync(join(dist, 'assets')).find((name) => /^login-.*\.js$/.test(name));
if (!loginChunk) throw new Error('No login chunk in dist/assets: is the login route still lazy?');
visit(`assets/${loginChunk}`);

let total = gzipSync(html).length;
for (const file of [...files].sort()) {
  const size = gzipSync(readFileSync(join(dist, file))).length;
  total += size;
  console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${file}`);
}
console.log(
  `${(total / 1024).toFixed(1).padStart(7)} KB  login page total, gzip (budget ${BUDGET_BYTES / 1024} KB)`,
);
if (total > BUDGET_BYTES) {
  console.error('The login page is over its budget.');
  process.exit(1);
}

const assets = readdirSync(join(dist, 'assets')).filter((name) => name.endsWith('.js'));
const isCharts = (file) => /(^|\/)(report-)?charts-[^/]*\.js$/.test(file);
if (!assets.some(isCharts))
  throw new Error('No charts chunk in dist/assets: see vendorChunks in vite.config.ts.');
if (!assets.some((name) => name.startsWith('report-')))
  throw new Error('No report-* chunk in dist/assets: see chunkFileNames in vite.config.ts.');
const chartsLoaders = [...files].filter(isCharts).map((file) => `the login page loads ${file}`);
for (const name of assets) {
  if (name.startsWith('report-') || isCharts(name)) continue;
  const loaded = [...staticClosure(`assets/${name}`)].filter(isCharts);
  if (loaded.length > 0) chartsLoaders.push(`${name} loads ${loaded.join(', ')}`);
}
if (chartsLoaders.length > 0) {
  console.error(`The charts load outside the Reports pages:\n  ${chartsLoaders.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `The charts load with the Reports pages only (${assets.filter((name) => name.startsWith('report-')).join(', ')}).`,
);
