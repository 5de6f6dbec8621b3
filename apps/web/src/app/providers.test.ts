import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api';
import { shouldRetry } from './providers';

describe('query retries', () => {
  it('never retries a 4xx answer', () => {
    for (const status of [400, 401, 403, 404, 409, 429]) {
      expect(shouldRetry(0, new ApiError(status, null, null, 'x'))).toBe(false);
    }
  });

  it('retries network failures and 5xx twice', () => {
    for (const error of [
      new ApiError(0, null, null, 'x'),
      new ApiError(502, null, null, 'x'),
      new Error('x'),
    ]) {
      expect(shouldRetry(0, error)).toBe(true);
      expect(shouldRetry(1, error)).toBe(true);
      expect(shouldRetry(2, error)).toBe(false);
    }
  });
});
