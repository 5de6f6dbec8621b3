import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from './index';
import { ACCOUNT_A, ACCOUNT_B, ACCOUNT_FREE, call, items, seededSandbox, text } from './testing/harness';

let sandbox: Sandbox;
afterEach(async () => {
  await sandbox.close();
});

const entrypoint = (zoneId: string) =>
  `/zones/${zoneId}/rulesets/phases/http_request_firewall_custom/entrypoint`;
const rule = (expression: string, extra: object = {}) => ({ action: 'block', expression, ...extra });

describe('WAF custom rules', () => {
  it('places rules by position and versions every write', async () => {
    sandbox = await seededSandbox();
    const { id } = sandbox.control.addZone(ACCOUNT_A, 'example.com');
    const created = await call(sandbox, 'PUT', entrypoint(id), {
      body: {
        rules: [
          rule('ip.src eq 192.0.2.1', { description: 'one' }),
          rule('ip.src eq 192.0.2.2', { description: 'two' }),
        ],
      },
    });
    const rulesetId = text(created.body.result.id);
    const [one, two] = items(created.body.result.rules).map((r) => text(r.id));
    expect(items(created.body.result.rules)[0]).toMatchObject({ version: '1', ref: one, enabled: true });
    const base = `/zones/${id}/rulesets/${rulesetId}/rules`;

    const before = await call(sandbox, 'POST', base, {
      body: { ...rule('ip.src eq 192.0.2.3'), description: 'three', position: { before: two } },
    });
    expect(items(before.body.result.rules).map((r) => r.description)).toEqual(['one', 'three', 'two']);
    const last = await call(sandbox, 'POST', base, {
      body: { ...rule('ip.src eq 192.0.2.4'), description: 'four' },
    });
    expect(items(last.body.result.rules).map((r) => r.description)).toEqual(['one', 'three', 'two', 'four']);
    const moved = await call(sandbox, 'PATCH', `${base}/${one}`, { body: { position: { after: two } } });
    expect(items(moved.body.result.rules).map((r) => r.description)).toEqual(['three', 'two', 'one', 'four']);
    expect(items(moved.body.result.rules)[2]?.version).toBe('1');
    const toFirst = await call(sandbox, 'PATCH', `${base}/${one}`, {
      body: { description: 'uno', position: { index: 1 } },
    });
    expect(items(toFirst.body.result.rules).map((r) => r.description)).toEqual([
      'uno',
      'three',
      'two',
      'four',
    ]);
    expect(items(toFirst.body.result.rules)[0]?.version).toBe('2');
    expect(toFirst.body.result.version).toBe('5');
    expect(
      (await call(sandbox, 'PATCH', `${base}/${one}`, { body: { position: { before: 'nope' } } })).status,
    ).toBe(400);

    // PUT keeps the ids it is given, so a reorder is one call and one version.
    const reordered = await call(sandbox, 'PUT', entrypoint(id), {
      body: {
        rules: [...items(toFirst.body.result.rules)]
          .reverse()
          .map((r) => ({ id: r.id, action: r.action, expression: r.expression, description: r.description })),
      },
    });
    expect(items(reordered.body.result.rules).map((r) => r.description)).toEqual([
      'four',
      'two',
      'three',
      'uno',
    ]);
    expect(reordered.body.result.version).toBe('6');
    expect(sandbox.control.getRules(id).map((r) => r.id)).toContain(one);
  });

  it('enforces plan limits, Enterprise-only log and skip parameters', async () => {
    sandbox = await seededSandbox();
    const free = sandbox.control.addZone(ACCOUNT_FREE, 'free.com');
    const five = Array.from({ length: 5 }, (_, i) => rule(`ip.src eq 192.0.2.${i + 1}`));
    expect(
      (await call(sandbox, 'PUT', entrypoint(free.id), { token: 'token-free', body: { rules: five } }))
        .status,
    ).toBe(200);
    const six = await call(sandbox, 'PUT', entrypoint(free.id), {
      token: 'token-free',
      body: { rules: [...five, rule('ip.src eq 192.0.2.9')] },
    });
    expect(six.status).toBe(400);
    expect(text(six.body.errors[0].message)).toContain('6 out of 5');

    const pro = sandbox.control.addZone(ACCOUNT_B, 'pro.com');
    const log = await call(sandbox, 'PUT', entrypoint(pro.id), {
      token: 'token-b',
      body: { rules: [{ action: 'log', expression: 'ip.src eq 192.0.2.1' }] },
    });
    expect(log.status).toBe(400);
    const ent = sandbox.control.addZone(ACCOUNT_A, 'ent.com');
    const entLog = await call(sandbox, 'PUT', entrypoint(ent.id), {
      body: { rules: [{ action: 'log', expression: 'ip.src eq 192.0.2.1' }] },
    });
    expect(entLog.status).toBe(200);

    const skipBare = await call(sandbox, 'PUT', entrypoint(ent.id), {
      body: { rules: [{ action: 'skip', expression: 'ip.src eq 192.0.2.1' }] },
    });
    expect(skipBare.status).toBe(400);
    const skip = await call(sandbox, 'PUT', entrypoint(ent.id), {
      body: {
        rules: [
          {
            action: 'skip',
            expression: 'ip.src eq 192.0.2.1',
            action_parameters: { ruleset: 'current' },
            logging: { enabled: false },
          },
        ],
      },
    });
    expect(items(skip.body.result.rules)[0]).toMatchObject({
      action_parameters: { ruleset: 'current' },
      logging: { enabled: false },
    });
  });

  it('gives parsing errors for empty, unbalanced, ungrammatical and unknown-list expressions', async () => {
    sandbox = await seededSandbox();
    const { id } = sandbox.control.addZone(ACCOUNT_A, 'example.com');
    const bad = [
      '',
      '(ip.src eq 192.0.2.1',
      'http.request.uri.path eq "/a',
      'ip.src in $nope',
      'ip.src in {192.0.2.1',
      // Issue 18: the grammar, not only brackets and strings.
      'ip.src eq',
      'ip.src ==== 1',
      'ip.src',
      'ssl and',
    ];
    for (const expression of bad) {
      const answer = await call(sandbox, 'PUT', entrypoint(id), { body: { rules: [rule(expression)] } });
      expect([expression, answer.status]).toEqual([expression, 400]);
      expect(answer.body.errors[0].source.pointer).toBe('/rules/0/expression');
    }
    const answer = await call(sandbox, 'PUT', entrypoint(id), { body: { rules: [rule('ip.src eq')] } });
    expect(answer.body.errors).toEqual([
      {
        message: "Filter parsing error (1:10):\nip.src eq\n         ^ Expected a value after 'eq'\n",
        source: { pointer: '/rules/0/expression' },
      },
    ]);
    expect(sandbox.control.getRules(id)).toEqual([]);
    const fine = await call(sandbox, 'PUT', entrypoint(id), {
      body: {
        rules: [
          rule('(http.request.uri.path eq "/a)(" and ip.src in {192.0.2.0/24}) or cf.threat_score gt 10'),
          rule('not ssl'),
        ],
      },
    });
    expect(fine.status).toBe(200);
  });

  it('validates without saving on dry_run, and the Firewall Rules API is gone', async () => {
    sandbox = await seededSandbox();
    const { id } = sandbox.control.addZone(ACCOUNT_A, 'example.com');
    const dry = await call(sandbox, 'PUT', `${entrypoint(id)}?dry_run=true`, {
      body: { rules: [rule('ip.src eq 192.0.2.1')] },
    });
    expect(dry.body.result).toBeNull();
    expect((await call(sandbox, 'GET', entrypoint(id))).status).toBe(404);
    const gone = await sandbox.app.inject({
      method: 'POST',
      url: `/client/v4/zones/${id}/firewall/rules`,
      headers: { authorization: 'Bearer token-a' },
    });
    expect(gone.statusCode).toBe(410);
    const filters = await sandbox.app.inject({
      method: 'GET',
      url: `/client/v4/zones/${id}/filters`,
      headers: { authorization: 'Bearer token-a' },
    });
    expect(filters.statusCode).toBe(410);
  });
});

describe('page rules', () => {
  const target = (value: string) => [{ target: 'url', constraint: { operator: 'matches', value } }];
  const pageRule = (value: string, extra: object = {}) => ({
    targets: target(value),
    actions: [{ id: 'always_use_https' }],
    status: 'active',
    ...extra,
  });

  it('keeps priorities 1..n, higher wins, a new rule at priority 1 goes under the others', async () => {
    sandbox = await seededSandbox();
    const { id } = sandbox.control.addZone(ACCOUNT_A, 'example.com');
    const base = `/zones/${id}/pagerules`;
    const a = await call(sandbox, 'POST', base, { body: pageRule('a.example.com/*') });
    const b = await call(sandbox, 'POST', base, { body: pageRule('b.example.com/*', { priority: 5 }) });
    const c = await call(sandbox, 'POST', base, { body: pageRule('c.example.com/*') });
    expect(c.body.result.priority).toBe(1);
    const listed = await call(sandbox, 'GET', `${base}?order=priority&direction=asc`);
    expect(items(listed.body.result).map((r) => [r.targets[0]?.constraint.value, r.priority])).toEqual([
      ['c.example.com/*', 1],
      ['a.example.com/*', 2],
      ['b.example.com/*', 3],
    ]);
    const desc = await call(sandbox, 'GET', base);
    expect(items(desc.body.result)[0]?.id).toBe(b.body.result.id);
    await call(sandbox, 'PATCH', `${base}/${text(a.body.result.id)}`, { body: { priority: 3 } });
    expect(sandbox.control.getPageRules(id).map((r) => r.targets[0]?.constraint.value)).toEqual([
      'c.example.com/*',
      'b.example.com/*',
      'a.example.com/*',
    ]);
    await call(sandbox, 'DELETE', `${base}/${text(c.body.result.id)}`);
    expect(sandbox.control.getPageRules(id).map((r) => r.priority)).toEqual([1, 2]);
    const disabled = await call(sandbox, 'GET', `${base}?status=disabled`);
    expect(items(disabled.body.result)).toEqual([]);
  });

  it('refuses duplicate URLs, mixed forwarding, a relative destination, and more rules than the plan has', async () => {
    sandbox = await seededSandbox();
    const free = sandbox.control.addZone(ACCOUNT_FREE, 'free.com');
    const base = `/zones/${free.id}/pagerules`;
    for (const host of ['a', 'b', 'c']) {
      expect(
        (await call(sandbox, 'POST', base, { token: 'token-free', body: pageRule(`${host}.free.com/*`) }))
          .status,
      ).toBe(200);
    }
    const fourth = await call(sandbox, 'POST', base, { token: 'token-free', body: pageRule('d.free.com/*') });
    expect(fourth.status).toBe(400);
    const duplicate = await call(sandbox, 'POST', base, {
      token: 'token-free',
      body: pageRule('a.free.com/*'),
    });
    expect(text(duplicate.body.messages[0].message)).toContain('distinctTargetUrl');

    const { id } = sandbox.control.addZone(ACCOUNT_A, 'example.com');
    const mixed = await call(sandbox, 'POST', `/zones/${id}/pagerules`, {
      body: pageRule('x.example.com/*', {
        actions: [
          { id: 'forwarding_url', value: { url: 'https://example.net/', status_code: 301 } },
          { id: 'ssl', value: 'full' },
        ],
      }),
    });
    expect(mixed.status).toBe(400);
    for (const url of ['not a url', 'www.example.net/new', 'ftp://example.net/']) {
      const relative = await call(sandbox, 'POST', `/zones/${id}/pagerules`, {
        body: pageRule('y.example.com/*', {
          actions: [{ id: 'forwarding_url', value: { url, status_code: 301 } }],
        }),
      });
      expect([url, relative.status]).toEqual([url, 400]);
      expect(text(relative.body.messages[0].message)).toContain(
        '.actions[0].value: invalid value for forwarding_url',
      );
    }
    const forward = await call(sandbox, 'POST', `/zones/${id}/pagerules`, {
      body: pageRule('x.example.com/*', {
        actions: [{ id: 'forwarding_url', value: { url: 'https://example.net/$1', status_code: 302 } }],
      }),
    });
    expect(forward.body.result.actions).toEqual([
      { id: 'forwarding_url', value: { url: 'https://example.net/$1', status_code: 302 } },
    ]);
  });
});
