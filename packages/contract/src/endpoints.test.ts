import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contract from './index';
import { allEndpoints } from './endpoints';
import { pathOf, pathParams } from './shared/path';

/** The schemas bounds.test.ts walks (every string and list capped): the same rule picks them. */
const requestSchemas = new Set<unknown>(
  Object.entries(contract)
    .filter(([name, value]) => /(Request|Params|Query|Input)Schema$/.test(name) && value instanceof z.ZodType)
    .map(([, value]) => value),
);

describe('the endpoint table', () => {
  it('declares each method and path once', () => {
    const routes = allEndpoints.map((endpoint) => `${endpoint.method} ${endpoint.path}`);
    expect(new Set(routes).size).toBe(routes.length);
    expect(routes.length).toBeGreaterThanOrEqual(30);
  });

  it.each(allEndpoints.map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint] as const))(
    '%s: its params schema names exactly the path params',
    (_route, endpoint) => {
      const declared = endpoint.params ? Object.keys((endpoint.params as z.ZodObject).shape) : [];
      expect(declared.sort()).toEqual(pathParams(endpoint.path).sort());
    },
  );

  it('checks every request with a bounded schema of the contract', () => {
    const unchecked = allEndpoints.flatMap((endpoint) =>
      (['params', 'query', 'body'] as const)
        .filter((part) => endpoint[part] !== undefined && !requestSchemas.has(endpoint[part]))
        .map((part) => `${endpoint.method} ${endpoint.path} ${part}`),
    );
    expect(unchecked).toEqual([]);
  });

  it('answers every error with the contract ErrorBody', () => {
    for (const endpoint of allEndpoints) {
      for (const [status, schema] of Object.entries(endpoint.responses)) {
        if (Number(status) >= 400) expect(schema).toBe(contract.errorBodySchema);
      }
      expect(Object.keys(endpoint.responses).some((status) => Number(status) < 300)).toBe(true);
    }
  });

  it('fills a path with its params, escaped', () => {
    expect(pathOf(contract.dnsRecordEndpoints.update, { zone_id: 'z/1', record_id: 'r' })).toBe(
      '/api/cloudflare/zones/z%2F1/dns/r',
    );
    expect(() => pathOf(contract.dnsRecordEndpoints.update, { zone_id: 'z' })).toThrow(/record_id/);
  });
});
