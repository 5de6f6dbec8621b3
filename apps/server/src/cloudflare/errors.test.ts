import Cloudflare from 'cloudflare';
import { describe, expect, it } from 'vitest';
import { cloudflareErrorToAppError, isCloudflareNotFound } from './errors';

const refusal = (status: number, errors: { code: number; message: string }[]) =>
  Cloudflare.APIError.generate(status, { success: false, errors, messages: [] }, undefined, new Headers());

describe("Cloudflare's refusals in a person's words", () => {
  it("says what to do when an account-owned token may not call Page Rules (Cloudflare's error 1011)", () => {
    const error = cloudflareErrorToAppError(
      refusal(400, [{ code: 1011, message: 'Page Rules endpoint does not support account owned tokens' }]),
    );
    expect(error?.code).toBe('FORBIDDEN');
    expect(error?.message).toBe(
      "Cloudflare does not let this account's API token (an account-owned token) read or change page rules. To manage them here, give the account a user API token with Page Rules permission.",
    );
  });

  it("keeps Cloudflare's own words for other refusals", () => {
    const error = cloudflareErrorToAppError(refusal(400, [{ code: 1004, message: 'DNS Validation Error' }]));
    expect(error).toMatchObject({ code: 'BAD_REQUEST', message: 'DNS Validation Error' });
  });
});

describe('a 404 from Cloudflare', () => {
  it('is told from any other refusal, an unreachable Cloudflare and any other error', () => {
    const missing = refusal(404, [{ code: 81044, message: 'Record does not exist.' }]);
    const refused = refusal(403, [{ code: 10000, message: 'Authentication error' }]);
    const unreachable = new Cloudflare.APIConnectionError({ message: 'Connection error.' });
    const errors = [missing, refused, unreachable, new Error('Not found')];
    expect(errors.map((err) => isCloudflareNotFound(err))).toEqual([true, false, false, false]);
  });
});
