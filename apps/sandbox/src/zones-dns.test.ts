import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from './index';
import { ACCOUNT_A, ACCOUNT_B, call, items, seededSandbox, text } from './testing/harness';

let sandbox: Sandbox;
afterEach(async () => {
  await sandbox.close();
});

describe('zones', () => {
  it('pages with page/per_page and filters by account, name and status', async () => {
    sandbox = await seededSandbox();
    for (let i = 0; i < 12; i++) sandbox.control.addZone(ACCOUNT_A, `site${String(i).padStart(2, '0')}.com`);
    sandbox.control.addZone(ACCOUNT_B, 'other.com', { status: 'active' });
    const first = await call(sandbox, 'GET', '/zones?per_page=5', { token: 'token-ab' });
    expect(first.body.result_info).toEqual({
      page: 1,
      per_page: 5,
      count: 5,
      total_count: 13,
      total_pages: 3,
    });
    const last = await call(sandbox, 'GET', '/zones?per_page=5&page=3', { token: 'token-ab' });
    expect(items(last.body.result).map((zone) => zone.name)).toEqual([
      'site09.com',
      'site10.com',
      'site11.com',
    ]);
    const past = await call(sandbox, 'GET', '/zones?per_page=5&page=9', { token: 'token-ab' });
    expect(items(past.body.result)).toEqual([]);
    expect((await call(sandbox, 'GET', '/zones?per_page=51')).status).toBe(400);

    const onlyA = await call(sandbox, 'GET', '/zones');
    expect(onlyA.body.result_info.total_count).toBe(12);
    const byName = await call(sandbox, 'GET', '/zones?name=contains:site0', { token: 'token-ab' });
    expect(byName.body.result_info.total_count).toBe(10);
    const exact = await call(sandbox, 'GET', '/zones?name=other.com', { token: 'token-ab' });
    expect(items(exact.body.result).map((zone) => zone.status)).toEqual(['active']);
    const pending = await call(sandbox, 'GET', `/zones?status=pending&account.id=${ACCOUNT_B}`, {
      token: 'token-ab',
    });
    expect(items(pending.body.result)).toEqual([]);
    const desc = await call(sandbox, 'GET', '/zones?direction=desc&per_page=5');
    expect(items(desc.body.result)[0]?.name).toBe('site11.com');
  });

  it('refuses invalid domains and other accounts, and activates after a delay or on demand', async () => {
    sandbox = await seededSandbox({ zoneActivationDelayMs: 30 });
    const invalid = await call(sandbox, 'POST', '/zones', {
      body: { account: { id: ACCOUNT_A }, name: 'not a domain' },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors[0].code).toBe(1097);
    const foreign = await call(sandbox, 'POST', '/zones', {
      body: { account: { id: ACCOUNT_B }, name: 'x.com' },
    });
    expect(foreign.status).toBe(403);
    const created = await call(sandbox, 'POST', '/zones', {
      body: { account: { id: ACCOUNT_A }, name: 'Example.COM' },
    });
    expect(created.body.result).toMatchObject({ name: 'example.com', status: 'pending', activated_on: null });
    await new Promise((resolve) => setTimeout(resolve, 80));
    const zone = await call(sandbox, 'GET', `/zones/${text(created.body.result.id)}`);
    expect(zone.body.result.status).toBe('active');
    expect(typeof zone.body.result.activated_on).toBe('string');

    const manual = sandbox.control.addZone(ACCOUNT_B, 'manual.com');
    sandbox.control.activateZone(manual.id);
    expect(sandbox.control.getZones(ACCOUNT_B)[0]?.status).toBe('active');
  });

  it('deletes a zone with its records and rules', async () => {
    sandbox = await seededSandbox();
    const zone = sandbox.control.addZone(ACCOUNT_A, 'gone.com');
    await call(sandbox, 'POST', `/zones/${zone.id}/dns_records`, {
      body: { type: 'TXT', name: '@', content: 'v=spf1 -all' },
    });
    await call(sandbox, 'DELETE', `/zones/${zone.id}`);
    expect(sandbox.control.getDnsRecords(zone.id)).toEqual([]);
    expect((await call(sandbox, 'GET', `/zones/${zone.id}/dns_records`)).status).toBe(404);
  });
});

describe('DNS records', () => {
  const create = (zoneId: string, body: object, token = 'token-a') =>
    call(sandbox, 'POST', `/zones/${zoneId}/dns_records`, { body, token });
  const chainCode = (body: { errors: { error_chain?: { code: number }[] }[] }) =>
    body.errors[0]?.error_chain?.[0]?.code;

  it('validates content per type', async () => {
    sandbox = await seededSandbox();
    const { id } = sandbox.control.addZone(ACCOUNT_A, 'example.com');
    const cases: [object, number | null][] = [
      [{ type: 'AAAA', name: 'v6', content: '2001:db8::1' }, null],
      [{ type: 'AAAA', name: 'v6bad', content: '192.0.2.1' }, 9006],
      [{ type: 'CNAME', name: 'alias', content: 'target.example.net' }, null],
      [{ type: 'CNAME', name: 'alias2', content: 'not a host' }, 9007],
      [{ type: 'CNAME', name: 'alias3', content: '192.0.2.1' }, 9007],
      [{ type: 'MX', name: '@', content: '192.0.2.1', priority: 10 }, 9009],
      [{ type: 'NS', name: 'sub2', content: '192.0.2.1' }, 9008],
      [{ type: 'MX', name: '@', content: 'mail.example.com', priority: 10 }, null],
      [{ type: 'MX', name: '@', content: 'mail2.example.com' }, 9100],
      [{ type: 'NS', name: 'sub', content: 'ns1.example.net' }, null],
      [{ type: 'TXT', name: '@', content: 'v=spf1 include:example.net -all' }, null],
      [{ type: 'TXT', name: '@', content: '' }, 9011],
      [
        {
          type: 'SRV',
          name: '_sip._tcp',
          data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.com' },
        },
        null,
      ],
      [
        {
          type: 'SRV',
          name: '_sip._tcp',
          data: { priority: 10, weight: 5, port: 70000, target: 'sip.example.com' },
        },
        9101,
      ],
      [{ type: 'TXT', name: 'p', content: 'x', proxied: true }, 9004],
      [{ type: 'A', name: 'bad name!', content: '192.0.2.1' }, 9000],
      [{ type: 'A', name: 'ttl', content: '192.0.2.1', ttl: 30 }, null],
      [{ type: 'CAA', name: '@', data: { flags: 0, tag: 'issue', value: 'ca.example' } }, 9003],
    ];
    for (const [body, code] of cases) {
      const answer = await create(id, body);
      expect([JSON.stringify(body), answer.status, chainCode(answer.body as never) ?? null]).toEqual([
        JSON.stringify(body),
        code === null ? 200 : 400,
        code,
      ]);
    }
    const srv = sandbox.control.getDnsRecords(id).find((record) => record.type === 'SRV');
    expect(srv).toMatchObject({
      content: '5 5060 sip.example.com',
      priority: 10,
      name: '_sip._tcp.example.com',
    });
  });

  it('keeps proxied records on automatic TTL and refuses short TTLs below Enterprise', async () => {
    sandbox = await seededSandbox();
    const { id } = sandbox.control.addZone(ACCOUNT_B, 'pro.com');
    const proxied = await create(
      id,
      { type: 'A', name: 'www', content: '192.0.2.1', ttl: 3600, proxied: true },
      'token-b',
    );
    expect(proxied.body.result).toMatchObject({ ttl: 1, proxied: true });
    const short = await create(id, { type: 'A', name: 'api', content: '192.0.2.1', ttl: 30 }, 'token-b');
    expect(chainCode(short.body as never)).toBe(9021);
  });

  it('refuses duplicates, CNAME clashes and type changes; PATCH keeps untouched fields', async () => {
    sandbox = await seededSandbox();
    const { id } = sandbox.control.addZone(ACCOUNT_A, 'example.com');
    const a = await create(id, { type: 'A', name: 'www', content: '192.0.2.1', comment: 'web' });
    expect((await create(id, { type: 'A', name: 'www', content: '192.0.2.1' })).body.errors[0].code).toBe(
      81057,
    );
    expect(
      (await create(id, { type: 'CNAME', name: 'www', content: 'x.example.net' })).body.errors[0].code,
    ).toBe(81053);
    await create(id, { type: 'CNAME', name: 'blog', content: 'x.example.net' });
    expect((await create(id, { type: 'TXT', name: 'blog', content: 'hello' })).body.errors[0].code).toBe(
      81054,
    );

    const recordPath = `/zones/${id}/dns_records/${text(a.body.result.id)}`;
    const typeChange = await call(sandbox, 'PATCH', recordPath, {
      body: { type: 'AAAA', content: '2001:db8::1' },
    });
    expect(chainCode(typeChange.body as never)).toBe(9039);
    const patched = await call(sandbox, 'PATCH', recordPath, { body: { content: '192.0.2.9' } });
    expect(patched.body.result).toMatchObject({ content: '192.0.2.9', comment: 'web', type: 'A' });
  });

  it('lists with paging, filters and order', async () => {
    sandbox = await seededSandbox();
    const { id } = sandbox.control.addZone(ACCOUNT_A, 'example.com');
    for (let i = 0; i < 7; i++) await create(id, { type: 'A', name: `h${i}`, content: `192.0.2.${i + 1}` });
    await create(id, { type: 'TXT', name: '@', content: 'hello world' });
    const page = await call(sandbox, 'GET', `/zones/${id}/dns_records?per_page=3&page=2&type=A&order=name`);
    expect(items(page.body.result).map((record) => record.name)).toEqual([
      'h3.example.com',
      'h4.example.com',
      'h5.example.com',
    ]);
    expect(page.body.result_info).toMatchObject({ total_count: 7, total_pages: 3 });
    const search = await call(sandbox, 'GET', `/zones/${id}/dns_records?search=hello`);
    expect(items(search.body.result).map((record) => record.type)).toEqual(['TXT']);
    const contains = await call(sandbox, 'GET', `/zones/${id}/dns_records?name.startswith=h1`);
    expect(items(contains.body.result)).toHaveLength(1);
  });
});
