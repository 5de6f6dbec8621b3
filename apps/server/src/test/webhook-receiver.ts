import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A request as the test receiver took it. */
export interface ReceivedPost {
  headers: IncomingHttpHeaders;
  body: string;
  /** With a secret: whether `standardwebhooks` verified its signature (and then the parsed body). */
  verified: boolean;
  verifyError?: string;
}

/** How the receiver answers the next request: a status and body, or silence for `delayMs` first. */
export type ReceiverAnswer = { status: number; body?: string; delayMs?: number; location?: string };

export interface WebhookReceiver {
  port: number;
  url: string;
  posts: ReceivedPost[];
  /** Sets the answer from now on (default 200 "received"). */
  answer(answer: ReceiverAnswer): void;
  /** The Standard Webhooks secret to verify with (a `webhook` channel's, once known). */
  verifyWith(secret: string): void;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedPost[]>;
  close(): Promise<void>;
}

const BODY_MAX = 1_000_000;

/**
 * A real HTTP receiver on a loopback port for tests: it keeps what arrives and, given the channel's
 * secret, verifies each request's Standard Webhooks signature with the `standardwebhooks` library (as
 * a receiver in the field does). The answer is set by the test.
 */
export async function startWebhookReceiver(path = '/hooks/guardian'): Promise<WebhookReceiver> {
  const posts: ReceivedPost[] = [];
  const waiters: (() => void)[] = [];
  let answer: ReceiverAnswer = { status: 200, body: 'received' };
  let secret: string | undefined;
  const open = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_MAX) chunks.push(chunk);
    });
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified = false;
      let verifyError: string | undefined;
      if (secret) {
        try {
          new Webhook(secret).verify(body, request.headers as Record<string, string>);
          verified = true;
        } catch (err) {
          verifyError = (err as Error).message;
        }
      }
      posts.push({ headers: request.headers, body, verified, verifyError });
      for (const wake of waiters.splice(0)) wake();
      const { status, body: text = '', delayMs = 0, location } = answer;
      open.add(response);
      setTimeout(() => {
        open.delete(response);
        if (response.destroyed) return;
        response.writeHead(status, { 'content-type': 'text/plain', ...(location ? { location } : {}) });
        response.end(text);
      }, delayMs);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}${path}`,
    posts,
    answer: (next) => void (answer = next),
    verifyWith: (next) => void (secret = next),
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (posts.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`The receiver got ${posts.length} of ${count} posts in time.`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => (clearTimeout(timer), resolve()));
        });
      }
      return posts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of open) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
