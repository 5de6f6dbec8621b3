import { describe, expect, it } from 'vitest';
import type { ErrorBody } from '@guardian/contract';
import { ApiError } from '../lib/api';
import { shouldRetry } from './providers';

const reason = 'Cloudflare is unavailable right now. Please try again.';
const serverBody: ErrorBody = {
  code: 'UPSTREAM',
  message: reason,
  errors: [{ code: 'UPSTREAM', message: reason }],
};

describe('query retries', () => {
  it('never retries a 4xx answer', () => {
    for (const status of [400, 401, 403, 404, 409, 429]) {
      expect(shouldRetry(0, new ApiError(status, null, null, 'x'))).toBe(false);
    }
  });

  // Issue 35 item 13: the server has already retried Cloudflare; asking again made a failure take 15 s.
  it("never retries a 5xx carrying the server's own message", () => {
    for (const status of [500, 502, 503, 504]) {
      expect(shouldRetry(0, new ApiError(status, serverBody, reason, reason))).toBe(false);
    }
  });

  it('retries once a read that got no answer from Guardian: no response, or a proxy’s 5xx page', () => {
    for (const error of [
      new ApiError(0, null, null, 'x'),
      new ApiError(502, null, null, 'x', 'Bad Gateway nginx'),
      new Error('x'),
    ]) {
      expect(shouldRetry(0, error)).toBe(true);
      expect(shouldRetry(1, error)).toBe(false);
    }
  });
});
