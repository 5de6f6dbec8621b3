import { onTestFinished, vi } from 'vitest';

/** One request the app made, as the fake API saw it. */
export interface Call {
  method: string;
  /** The URL's pathname, without the query string (that is in `params`). */
  path: string;
  params: URLSearchParams;
  /** The JSON body, parsed; undefined when none was sent. */
  body: unknown;
}

/** How the fake API answers one "METHOD /path". */
export type Answer = (call: Call) => Response | Promise<Response>;

/** Calls held by `held` until the test lets them go. */
export interface Held {
  /**
   * Answers every call waiting so far with `response` or, without one, with the key's answer (as it is
   * now), and stops holding: later calls are answered at once.
   */
  release(response?: Response): void;
}

export interface FakeApi {
  /** Every call, expected or not, in order. */
  calls: Call[];
  /** Answers "METHOD /path" with `answer` from now on, replacing any answer it had. */
  answer(key: string, answer: Answer): void;
  /** The calls to "METHOD /path", in order. */
  callsTo(key: string): Call[];
  /** The bodies sent to "METHOD /path", in order. */
  sent(key: string): unknown[];
  /** Makes the calls to "METHOD /path" wait until `release`: for the screens' "Saving..." states. */
  held(key: string): Held;
}

/**
 * Stubs the global fetch with a fake of the server's API. Keys are "METHOD /path" without the query string,
 * so an answer that depends on the query (the ban list items' paging) reads `call.params`. A call with no
 * answer rejects with "Unexpected call: METHOD /path", and fails the test when it ends even if the screen
 * swallowed the error.
 */
/**
 * The top bar asks for the person's jobs (the bell) and open alerts (their count) on every screen of
 * the shell, and the overview and the profile for the person's plan and use: a test that does not
 * answer these keys gets none (a plan with nothing used), and those calls stay out of `calls`.
 */
const json = (body: unknown) => () =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
const TOP_BAR_ANSWERS: Record<string, () => Response> = {
  'GET /api/jobs': json({ jobs: [], unseen: 0 }),
  'GET /api/alerts/summary': json({ open: 0 }),
  'GET /api/me/plan': json({ name: 'Standard', report_range: '30d', use: [] }),
};

export function fakeApi(answers: Record<string, Answer> = {}): FakeApi {
  const table = new Map(Object.entries(answers));
  /** Per held key, how to resume each waiting call: with an answer, or undefined for the key's own. */
  const holds = new Map<string, ((answer: Answer | undefined) => void)[]>();
  const calls: Call[] = [];
  const unexpected: string[] = [];

  const keyOf = (call: Call) => `${call.method} ${call.path}`;

  const respond = (key: string, call: Call, answer = table.get(key)) => {
    if (answer) return answer(call);
    const message = `Unexpected call: ${key}`;
    unexpected.push(message);
    throw new Error(message);
  };

  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      params: url.searchParams,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    };
    const key = keyOf(call);
    const topBar = TOP_BAR_ANSWERS[key];
    if (topBar && !table.has(key)) return topBar();
    calls.push(call);
    const waiting = holds.get(key);
    if (!waiting) return respond(key, call);
    const answer = await new Promise<Answer | undefined>((resume) => waiting.push(resume));
    return respond(key, call, answer);
  });

  // The api client turns a rejected fetch into an error on screen, which a test may not look at.
  onTestFinished(() => {
    if (unexpected.length > 0) throw new Error(unexpected.join('\n'));
  });

  const callsTo = (key: string) => calls.filter((call) => keyOf(call) === key);
  return {
    calls,
    answer: (key, answer) => void table.set(key, answer),
    callsTo,
    sent: (key) => callsTo(key).map((call) => call.body),
    held(key) {
      const waiting: ((answer: Answer | undefined) => void)[] = [];
      holds.set(key, waiting);
      return {
        release(response) {
          if (holds.get(key) === waiting) holds.delete(key);
          if (response && waiting.length === 0) throw new Error(`Nothing is waiting on ${key} to release.`);
          // A body can be read once: each waiting call gets its own copy, made before any is read.
          const copies = waiting.map((_, i) => (i === 0 ? response : response?.clone()));
          waiting.forEach((resume, i) => {
            const copy = copies[i];
            resume(copy && (() => copy));
          });
        },
      };
    },
  };
}

/** What the server says when Cloudflare fails an action: the contract's error body. */
export const UPSTREAM_REASON = 'Cloudflare is unavailable right now. Please try again.';

/** A 502 with the contract's error body carrying `UPSTREAM_REASON`. */
export function upstreamFailure(): Response {
  return new Response(
    JSON.stringify({
      code: 'UPSTREAM',
      message: UPSTREAM_REASON,
      errors: [{ code: 'UPSTREAM', message: UPSTREAM_REASON }],
    }),
    { status: 502, headers: { 'Content-Type': 'application/json' } },
  );
}
