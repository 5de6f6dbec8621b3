import type { Config } from '../config';
import type { CloudflareTestContextOptions } from './cloudflare-context';

/**
 * A network under the console's Cloudflare client that loses answers (issue 41): while answers are to
 * be lost, the answer to a write (of one method, when given) is dropped after Cloudflare applied it,
 * as a cut connection would; with `failReads`, every read after the first lost answer fails as well.
 *
 *   const network = lossyNetwork();
 *   ctx = await createCloudflareTestContext(throughNetwork(network));
 *   network.lose(10, { failReads: true });
 */
export interface LossyNetwork {
  fetch: typeof fetch;
  /** Loses the next `count` answers to writes (of `method` only, when given). */
  lose(count: number, options?: { method?: string; failReads?: boolean }): void;
  /** Every answer arrives again (each test starts so). */
  reset(): void;
}

export function lossyNetwork(): LossyNetwork {
  let remaining = 0;
  let method: string | undefined;
  let failReads = false;
  let lost = false;
  return {
    async fetch(input, init) {
      const verb = (init?.method ?? 'GET').toUpperCase();
      if (verb === 'GET' && failReads && lost) throw new TypeError('fetch failed');
      const response = await fetch(input, init);
      if (remaining > 0 && verb !== 'GET' && (method ?? verb) === verb) {
        remaining -= 1;
        lost = true;
        await response.arrayBuffer();
        throw new TypeError('fetch failed', { cause: new Error('read ECONNRESET') });
      }
      return response;
    },
    lose(count, options = {}) {
      remaining = count;
      method = options.method;
      failReads = options.failReads ?? false;
    },
    reset() {
      remaining = 0;
      method = undefined;
      failReads = false;
      lost = false;
    },
  };
}

/** Test-context options whose Cloudflare client calls through `network` (the context fills in the rest). */
export function throughNetwork(network: LossyNetwork): CloudflareTestContextOptions {
  return { config: { cloudflare: { fetch: network.fetch } as Config['cloudflare'] } };
}
