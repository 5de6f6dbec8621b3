/**
 * The web app in Chromium (Debian's /usr/bin/chromium through playwright-core; never a downloaded
 * browser): the gzip bytes of the JS and CSS each route loads, and how fast the items screen shows a
 * 500,000-item list and a search's answer.
 */
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TOKEN_STORAGE_KEY = 'token';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM} (set CHROMIUM_PATH).`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

async function signedInContext(
  browser: Browser,
  token: string | null,
  options: { probes?: boolean } = {},
): Promise<BrowserContext> {
  // The app's CSP (script-src 'self', no eval) would refuse the probes' text evaluated in the page;
  // bypassing it changes nothing else.
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    bypassCSP: options.probes,
  });
  if (token) {
    await context.addInitScript({
      content: `window.localStorage.setItem(${JSON.stringify(TOKEN_STORAGE_KEY)}, ${JSON.stringify(token)});`,
    });
  }
  return context;
}

export interface RouteBytes {
  route: string;
  /** The path the browser ended on (a guard may redirect). */
  landedOn: string;
  jsGzip: number;
  cssGzip: number;
  /** Every JS and CSS file requested, with its gzip size. */
  files: { file: string; gzip: number }[];
}

/**
 * Loads `route` in a fresh context (empty cache), waits until the network is idle, and sums the gzip
 * size (zlib default level, as `npm run check:size -w @guardian/web` counts) of every JS and CSS file
 * the page requested from the server.
 */
export async function routeBytes(
  browser: Browser,
  origin: string,
  route: string,
  token: string | null,
): Promise<RouteBytes> {
  const context = await signedInContext(browser, token);
  const page = await context.newPage();
  const files = new Map<string, number>();
  const bodies: Promise<void>[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.origin !== origin || !/\.(js|css)$/.test(url.pathname)) return;
    bodies.push(
      response
        .body()
        .then((body) => void files.set(url.pathname, gzipSync(body).length))
        .catch(() => undefined),
    );
  });
  await page.goto(origin + route, { waitUntil: 'networkidle' });
  await page.waitForTimeout(300);
  await Promise.all(bodies);
  const landedOn = new URL(page.url()).pathname;
  await context.close();
  const list = [...files]
    .map(([file, gzip]) => ({ file, gzip }))
    .sort((a, b) => a.file.localeCompare(b.file));
  return {
    route,
    landedOn,
    jsGzip: list.filter((f) => f.file.endsWith('.js')).reduce((sum, f) => sum + f.gzip, 0),
    cssGzip: list.filter((f) => f.file.endsWith('.css')).reduce((sum, f) => sum + f.gzip, 0),
    files: list,
  };
}

export interface ItemsScreenTiming {
  /** Navigation start to the first page's first row in the DOM, at the next animation frame (ms). */
  firstPageMs: number;
  /** Navigation start to: the document's last byte, the last script or style, each API call. */
  timeline: { documentMs: number; assetsMs: number; api: { path: string; startMs: number; endMs: number }[] };
  /** Per search: last input event to the answer's first row shown, minus the debounce (ms). */
  searches: { name: string; query: string; afterDebounceMs: number; totalMs: number }[];
}

/**
 * In-page code, as plain JavaScript text: a function given to Playwright is sent as its source, and
 * the TypeScript loader's helpers (e.g. `__name`) do not exist in the page. A MutationObserver notes
 * when a table cell first holds the expected text, stamped at the next animation frame (when it is
 * painted); an input listener notes the last keystroke.
 */
const ITEMS_PAGE_PROBE = `
  (() => {
    const bench = { firstRow: 0, lastInput: 0, answer: 0, want: null, expected: EXPECTED };
    window.__bench = bench;
    function cellWith(text) {
      for (const cell of document.querySelectorAll('td, [role="cell"]')) {
        if (cell.textContent && cell.textContent.trim() === text) return true;
      }
      return false;
    }
    function stamp(key) {
      bench[key] = -1;
      requestAnimationFrame(function () { bench[key] = performance.now(); });
    }
    function check() {
      if (!bench.firstRow && cellWith(bench.expected)) stamp('firstRow');
      const want = bench.want;
      if (want && !bench.answer && cellWith(want.show) && (want.gone === want.show || !cellWith(want.gone))) stamp('answer');
    }
    window.__benchCellWith = cellWith;
    new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
    document.addEventListener('input', function () { bench.lastInput = performance.now(); }, true);
  })();
`;

/**
 * Opens the items screen of a list in a fresh context and times it. `firstIp` is the first row the
 * API answers for page 1; each search names the first row of its answer. A row counts as shown when a
 * table cell holds exactly that text (and, for a search, the unfiltered first row is gone).
 */
export async function timeItemsScreen(
  browser: Browser,
  origin: string,
  token: string,
  listId: string,
  firstIp: string,
  searches: { name: string; query: string; firstIp: string }[],
  debounceMs: number,
  timeoutMs = 15_000,
): Promise<ItemsScreenTiming> {
  const context = await signedInContext(browser, token, { probes: true });
  await context.addInitScript({ content: ITEMS_PAGE_PROBE.replace('EXPECTED', JSON.stringify(firstIp)) });
  const page = await context.newPage();
  const read = () =>
    page.evaluate(
      '({ firstRow: window.__bench.firstRow, lastInput: window.__bench.lastInput, answer: window.__bench.answer })',
    ) as Promise<{
      firstRow: number;
      lastInput: number;
      answer: number;
    }>;
  const failed = async (what: string): Promise<never> => {
    const shot = join(tmpdir(), `guardian-bench-items-${Date.now()}.png`);
    await page.screenshot({ path: shot, fullPage: true }).catch(() => undefined);
    const cells = await page
      .evaluate('Array.from(document.querySelectorAll("td")).slice(0, 6).map((cell) => cell.textContent)')
      .catch(() => []);
    const probe = await page.evaluate('JSON.stringify(window.__bench)').catch((err: unknown) => String(err));
    throw new Error(
      `${what} within ${timeoutMs / 1000} s; first cells ${JSON.stringify(cells)}; probe ${String(probe)}; screenshot ${shot}`,
    );
  };

  await page.goto(`${origin}/cloudflare/banlists/${encodeURIComponent(listId)}/items`);
  await page
    .waitForFunction('window.__bench.firstRow > 0', undefined, { timeout: timeoutMs })
    .catch(() => failed(`no table cell showed the first item (${firstIp})`));
  const firstPageMs = (await read()).firstRow;
  // Where the time went: the document, the scripts and styles, and the API calls before the first row.
  const timeline = (await page.evaluate(`(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const loaded = performance.getEntriesByType('resource').filter((entry) => entry.startTime < window.__bench.firstRow);
    const last = (test) => Math.max(0, ...loaded.filter((entry) => test(entry.name)).map((entry) => entry.responseEnd));
    return {
      documentMs: nav ? nav.responseEnd : 0,
      assetsMs: last((name) => /[.](js|css)$/.test(new URL(name).pathname)),
      api: loaded
        .filter((entry) => new URL(entry.name).pathname.startsWith('/api/'))
        .map((entry) => ({ path: new URL(entry.name).pathname, startMs: entry.startTime, endMs: entry.responseEnd })),
    };
  })()`)) as ItemsScreenTiming['timeline'];

  const results: ItemsScreenTiming['searches'] = [];
  const box = page.getByPlaceholder(/Search IP or Comment/i);
  for (const search of searches) {
    // Back to the unfiltered first page, then wait for it, so each search starts from the same view.
    if ((await box.inputValue()) !== '') {
      await box.fill('');
      await page
        .waitForFunction(`window.__benchCellWith(${JSON.stringify(firstIp)})`, undefined, {
          timeout: timeoutMs,
        })
        .catch(() => failed('the cleared search did not bring the first page back'));
    }
    await page.evaluate(
      `(() => { const b = window.__bench; b.answer = 0; b.lastInput = 0; b.want = ${JSON.stringify({ show: search.firstIp, gone: firstIp })}; })()`,
    );
    await box.fill(search.query);
    await page
      .waitForFunction('window.__bench.answer > 0', undefined, { timeout: timeoutMs })
      .catch(() => failed(`the search "${search.query}" did not show ${search.firstIp} first`));
    const { answer, lastInput } = await read();
    results.push({
      name: search.name,
      query: search.query,
      totalMs: answer - lastInput,
      afterDebounceMs: answer - lastInput - debounceMs,
    });
  }
  await context.close();
  return { firstPageMs, timeline, searches: results };
}

/**
 * The lazy chunks of the build by name (`ban-list-items` -> `/assets/ban-list-items-<hash>.js`), read
 * from the dynamic imports of the entry chunk that index.html loads: the route table's lazy screens and
 * the shell. A shared chunk that happens to carry a screen's name (a contract file named as a screen) is
 * not among them.
 */
export function lazyChunks(webDist: string): Map<string, string> {
  const html = readFileSync(join(webDist, 'index.html'), 'utf8');
  const entry = /<script[^>]+src="\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
  if (!entry) throw new Error(`no entry script in ${join(webDist, 'index.html')}`);
  const code = readFileSync(join(webDist, entry), 'utf8');
  const chunks = new Map<string, string>();
  for (const [, file] of code.matchAll(/import\(\s*[`"']\.\/([^`"']+\.js)[`"']\s*\)/g)) {
    const name = /^(.+)-[A-Za-z0-9_-]{8}\.js$/.exec(file!)?.[1];
    if (name) chunks.set(name, `/${dirname(entry)}/${file}`);
  }
  return chunks;
}
