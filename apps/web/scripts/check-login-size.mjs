/* global console, process */
// The login page is everyone's first load: its JS and CSS must stay under 150 KB gzip.
// Run after `vite build`: it follows index.html's scripts and styles, then the lazy login chunk, through
// their static imports, and sums the gzip size of every file once.
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BUDGET_BYTES = 150 * 1024;
const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');

const files = new Set();
const visit = (file) => {
  if (files.has(file)) return;
  files.add(file);
  if (!file.endsWith('.js')) return;
  const code = readFileSync(join(dist, file), 'utf8');
  for (const [, imported] of code.matchAll(/(?:from|import)\s*["']\.\/([^"']+)["']/g)) {
    visit(join(dirname(file), imported));
  }
};

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
