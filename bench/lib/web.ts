/**
 * The web app in Chromium (Debian's /usr/bin/chromium through playwright-core; never a downloaded
 * browser): the gzip bytes of the JS and CSS each route loads, and how fast the items screen shows a
 * 500,000-item list and a search's answer.
 */
import { existsSync } from 'node:fs';
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

async function signedInContext(browser: Browser, token: string | null): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  if (token) {
    await context.addInitScript(
      ([key, value]) => window.localStorage.setItem(key!, value!),
      [TOKEN_STORAGE_KEY, token],
    );
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
  /** Per search: last input event to the answer's first row shown, minus the debounce (ms). */
  searches: { name: string; query: string; afterDebounceMs: number; totalMs: number }[];
}

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
  const context = await signedInContext(browser, token);
  await context.addInitScript((expected: string) => {
    const bench = {
      firstRow: 0,
      lastInput: 0,
      answer: 0,
      want: null as null | { show: string; gone: string },
    };
    (window as unknown as { __bench: typeof bench }).__bench = bench;
    const cellWith = (text: string) =>
      Array.from(document.querySelectorAll('td, [role="cell"]')).some(
        (cell) => cell.textContent?.trim() === text,
      );
    const check = () => {
      if (!bench.firstRow && cellWith(expected)) {
        bench.firstRow = -1;
        requestAnimationFrame(() => (bench.firstRow = performance.now()));
      }
      const want = bench.want;
      if (want && !bench.answer && cellWith(want.show) && (want.gone === want.show || !cellWith(want.gone))) {
        bench.answer = -1;
        requestAnimationFrame(() => (bench.answer = performance.now()));
      }
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
    document.addEventListener('input', () => (bench.lastInput = performance.now()), true);
  }, firstIp);

  const page = await context.newPage();
  const read = () => page.evaluate(() => (window as unknown as { __bench: Record<string, number> }).__bench);
  await page.goto(`${origin}/cloudflare/banlists/${encodeURIComponent(listId)}/items`);
  await page
    .waitForFunction(
      () => (window as unknown as { __bench: { firstRow: number } }).__bench.firstRow > 0,
      undefined,
      {
        timeout: timeoutMs,
      },
    )
    .catch(() => {
      throw new Error(
        `no table cell showed the first item (${firstIp}) within ${timeoutMs / 1000} s: is the items screen built?`,
      );
    });
  const firstPageMs = (await read()).firstRow!;

  const results: ItemsScreenTiming['searches'] = [];
  const box = page.getByPlaceholder(/Search IP or Comment/i);
  for (const search of searches) {
    // Back to the unfiltered first page, then wait for it, so each search starts from the same view.
    if ((await box.inputValue()) !== '') {
      await box.fill('');
      await page.waitForFunction(
        (ip) =>
          Array.from(document.querySelectorAll('td, [role="cell"]')).some(
            (cell) => cell.textContent?.trim() === ip,
          ),
        firstIp,
        { timeout: timeoutMs },
      );
    }
    await page.evaluate(
      ([show, gone]) => {
        const bench = (window as unknown as { __bench: { want: unknown; answer: number; lastInput: number } })
          .__bench;
        bench.answer = 0;
        bench.lastInput = 0;
        bench.want = { show, gone };
      },
      [search.firstIp, firstIp],
    );
    await box.fill(search.query);
    await page
      .waitForFunction(
        () => (window as unknown as { __bench: { answer: number } }).__bench.answer > 0,
        undefined,
        {
          timeout: timeoutMs,
        },
      )
      .catch(() => {
        throw new Error(
          `the search "${search.query}" did not show ${search.firstIp} first within ${timeoutMs / 1000} s`,
        );
      });
    const { answer, lastInput } = await read();
    results.push({
      name: search.name,
      query: search.query,
      totalMs: answer! - lastInput!,
      afterDebounceMs: answer! - lastInput! - debounceMs,
    });
  }
  await context.close();
  return { firstPageMs, searches: results };
}
