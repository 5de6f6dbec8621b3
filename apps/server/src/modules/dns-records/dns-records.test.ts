import { refusalOf } from '../../test/request';
import { OUTCOME_HEADER, type CloudflareAccount, type DnsRecord, type ErrorBody } from '@guardian/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';
import { lossyNetwork, throughNetwork } from '../../test/lossy-network';

/** Cloudflare's answers to writes, lost when a test says so (test/lossy-network.ts). */
const network = lossyNetwork();

describe('DNS records', () => {
  let ctx: CloudflareTestContext;
  let user: TestUser;
  let account: CloudflareAccount & { tokenValue: string };
  let zoneCounter = 0;

  beforeAll(async () => {
    ctx = await createCloudflareTestContext(throughNetwork(network));
    user = await ctx.createUser();
    account = await ctx.addAccount(user, { name: 'DNS owner' });
  });
  afterAll(() => ctx.close());
  afterEach(() => {
    ctx.sandbox.control.clearFaults();
    network.reset();
  });

  /** A fresh zone of the user's account, in Cloudflare and in the mirror. */
  async function newZone(): Promise<{ id: string; domain: string }> {
    zoneCounter += 1;
    const zone = ctx.sandbox.control.addZone(account.account_id, `dns-${zoneCounter}.com`, {
      status: 'active',
    });
    const synced = await ctx.app.inject({
      method: 'POST',
      url: '/api/cloudflare/zones/sync',
      headers: user.headers,
    });
    expect(synced.statusCode).toBe(200);
    return { id: zone.id, domain: zone.name };
  }

  const dnsUrl = (zoneId: string, recordId?: string) =>
    `/api/cloudflare/zones/${zoneId}/dns${recordId ? `/${recordId}` : ''}`;
  const list = (zoneId: string, as = user) =>
    ctx.app.inject({ method: 'GET', url: dnsUrl(zoneId), headers: as.headers });
  const create = (zoneId: string, payload: object, as = user) =>
    ctx.app.inject({ method: 'POST', url: dnsUrl(zoneId), headers: as.headers, payload });
  const update = (zoneId: string, recordId: string, payload: object, as = user) =>
    ctx.app.inject({ method: 'PUT', url: dnsUrl(zoneId, recordId), headers: as.headers, payload });
  const remove = (zoneId: string, recordId: string, as = user) =>
    ctx.app.inject({ method: 'DELETE', url: dnsUrl(zoneId, recordId), headers: as.headers });

  async function created(zoneId: string, payload: object): Promise<DnsRecord> {
    const response = await create(zoneId, payload);
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  /** Cloudflare's records of the zone, in the shape the API answers. */
  const atCloudflare = (zoneId: string) =>
    ctx.sandbox.control
      .getDnsRecords(zoneId)
      .map(({ type, name, content }) => ({ type, name, content }))
      .sort((a, b) => `${a.type}${a.name}`.localeCompare(`${b.type}${b.name}`));

  describe('create and list', () => {
    it('creates a record of every type, checked and shaped as Cloudflare wants it', async () => {
      const zone = await newZone();
      const a = await created(zone.id, {
        type: 'A',
        name: '@',
        content: ' 203.0.113.10 ',
        ttl: 1,
        proxied: true,
      });
      expect(a).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{32}$/),
        type: 'A',
        name: zone.domain,
        content: '203.0.113.10',
        comment: '',
        priority: null,
        ttl: 1,
        proxied: true,
      });
      const aaaa = await created(zone.id, {
        type: 'AAAA',
        name: 'v6',
        content: '2001:db8::10',
        ttl: 300,
        proxied: false,
      });
      expect(aaaa).toMatchObject({ name: `v6.${zone.domain}`, ttl: 300, proxied: false });
      const cname = await created(zone.id, {
        type: 'CNAME',
        name: 'www',
        content: zone.domain,
        ttl: 1,
        proxied: true,
      });
      expect(cname).toMatchObject({ type: 'CNAME', content: zone.domain, proxied: true });
      const mx = await created(zone.id, { type: 'MX', name: '@', content: 'mail.example.net', ttl: 3600 });
      expect(mx).toMatchObject({ priority: 10, proxied: false });
      const txt = await created(zone.id, {
        type: 'TXT',
        name: '@',
        content: 'v=spf1 -all',
        ttl: 300,
        proxied: true,
        priority: 5,
        comment: ' SPF ',
      });
      // Cloudflare cannot proxy TXT: the console sends false rather than have Cloudflare refuse it.
      expect(txt).toMatchObject({ content: 'v=spf1 -all', proxied: false, priority: null, comment: 'SPF' });
      const srv = await created(zone.id, {
        type: 'SRV',
        name: '_sip._tcp',
        content: '5 5060 sip.example.net',
        priority: 20,
        ttl: 3600,
      });
      expect(srv).toMatchObject({
        name: `_sip._tcp.${zone.domain}`,
        content: '5 5060 sip.example.net',
        priority: 20,
      });
      expect(ctx.sandbox.control.getDnsRecords(zone.id).find((r) => r.id === srv.id)?.data).toEqual({
        priority: 20,
        weight: 5,
        port: 5060,
        target: 'sip.example.net',
      });
      const ns = await created(zone.id, { type: 'NS', name: 'sub', content: 'ns1.example.net', ttl: 86400 });
      expect(ns).toMatchObject({ type: 'NS', ttl: 86400 });

      const listed = await list(zone.id);
      expect(listed.statusCode).toBe(200);
      const records = listed.json<DnsRecord[]>();
      expect(records).toHaveLength(7);
      expect(records).toEqual(expect.arrayContaining([a, aaaa, cname, mx, txt, srv, ns]));
    });

    it('reads a zone of 3,500 records (the most a plan allows) in one call, and refuses one of more', async () => {
      const zone = await newZone();
      const add = (i: number) =>
        ctx.sandbox.app.inject({
          method: 'POST',
          url: `/client/v4/zones/${zone.id}/dns_records`,
          headers: { authorization: `Bearer ${account.tokenValue}` },
          payload: { type: 'A', name: `host-${i}`, content: '192.0.2.1', ttl: 1 },
        });
      for (let i = 0; i < 3_500; i++) await add(i);
      ctx.sandbox.control.resetCalls();
      const response = await list(zone.id);
      expect(response.json<DnsRecord[]>()).toHaveLength(3_500);
      expect(ctx.sandbox.control.callCount({ method: 'GET', path: `/zones/${zone.id}/dns_records` })).toBe(1);

      await add(3_500);
      const refused = await list(zone.id);
      expect(refused.statusCode).toBe(502);
      expect(refused.json()).toMatchObject({
        code: 'UPSTREAM',
        message:
          "Cloudflare's answer could not be used: the zone's DNS records: Cloudflare lists 3,501 of them, more than the 3,500 the console reads.",
      });
    });

    it.each([
      [{ name: 'x', content: '192.0.2.1' }, 'type'],
      [
        { type: 'CAA', name: 'x', content: '0 issue "ca.example"' },
        'Type must be one of A, AAAA, CNAME, TXT, MX, SRV, NS.',
      ],
      [{ type: 'A', name: '', content: '192.0.2.1' }, 'Name is required.'],
      [{ type: 'A', name: 'bad name', content: '192.0.2.1' }, 'Name must be @ or a host name'],
      [{ type: 'A', name: 'x', content: '  ' }, 'Content is required.'],
      [{ type: 'A', name: 'x', content: '192.0.2.300' }, 'IPv4 address'],
      [{ type: 'A', name: 'x', content: '2001:db8::1' }, 'IPv4 address'],
      [{ type: 'AAAA', name: 'x', content: '192.0.2.1' }, 'IPv6 address'],
      [{ type: 'CNAME', name: 'x', content: 'not a host' }, 'host name'],
      [{ type: 'NS', name: 'x', content: 'http://ns.example.net' }, 'host name'],
      // Issue 18: addresses were taken as CNAME and MX targets.
      [
        { type: 'CNAME', name: 'x', content: '192.0.2.1' },
        'A CNAME record points to a host name, not an IP address: use an A or AAAA record for an address.',
      ],
      [{ type: 'CNAME', name: 'x', content: '2001:db8::1' }, 'not an IP address'],
      [
        { type: 'MX', name: 'x', content: '192.0.2.1', priority: 10 },
        "An MX record names the mail server's host name, not an IP address, such as mail.example.com.",
      ],
      [{ type: 'NS', name: 'x', content: '192.0.2.1' }, 'not an IP address'],
      [
        { type: 'MX', name: 'x', content: 'mail.example.net', priority: 70000 },
        'Priority must be between 0 and 65535.',
      ],
      [
        { type: 'MX', name: 'x', content: 'mail.example.net', priority: 1.5 },
        'Priority must be a whole number.',
      ],
      // Issue 35 item 15: not a number is refused, never taken as 0.
      [
        { type: 'MX', name: 'x', content: 'mail.example.net', priority: 'abc' },
        'Priority must be a whole number between 0 and 65535.',
      ],
      // Cloudflare would answer it with TTL Auto: said, not silently replaced.
      [
        { type: 'A', name: 'x', content: '192.0.2.1', ttl: 3600, proxied: true },
        'A proxied record’s TTL is Auto (1): Cloudflare sets it. Send TTL 1, or turn Proxied off to choose a TTL.',
      ],
      [{ type: 'CNAME', name: 'x', content: 'target.example.net', ttl: 300, proxied: true }, 'Auto (1)'],
      [{ type: 'TXT', name: 'x', content: 'a'.repeat(2049) }, 'at most 2048 characters'],
      [{ type: 'SRV', name: '_sip._tcp', content: 'sip.example.net' }, 'weight port target'],
      [{ type: 'SRV', name: '_sip._tcp', content: '5 70000 sip.example.net' }, 'weight port target'],
      [{ type: 'SRV', name: 'sip', content: '5 5060 sip.example.net' }, 'service and protocol'],
      [
        { type: 'A', name: 'x', content: '192.0.2.1', ttl: 30 },
        'TTL must be Auto (1) or between 60 and 86400 seconds.',
      ],
      [{ type: 'A', name: 'x', content: '192.0.2.1', ttl: 90000 }, 'TTL must be Auto'],
      [{ type: 'A', name: 'x', content: '192.0.2.1', ttl: '300' }, 'ttl'],
      [{ type: 'A', name: 'x', content: '192.0.2.1', proxied: 'yes' }, 'proxied'],
      [
        { type: 'A', name: 'x', content: '192.0.2.1', comment: 'c'.repeat(101) },
        'Comment must be at most 100',
      ],
    ])('refuses %j with 400 before Cloudflare sees it', async (payload, message) => {
      const zone = await newZone();
      ctx.sandbox.control.resetCalls();
      const response = await create(zone.id, payload);
      expect(response.statusCode).toBe(400);
      expect(refusalOf(response.json<ErrorBody>())).toContain(message);
      expect(ctx.sandbox.control.callCount({ method: 'POST' })).toBe(0);
    });

    it('accepts every TTL the form offers', async () => {
      const zone = await newZone();
      for (const [i, ttl] of [1, 60, 300, 3600, 86400].entries()) {
        const record = await created(zone.id, {
          type: 'A',
          name: `ttl-${i}`,
          content: '192.0.2.1',
          ttl,
          proxied: false,
        });
        expect(record.ttl).toBe(ttl);
      }
    });

    it('answers Cloudflare’s own refusal as a 400 with its message', async () => {
      const zone = await newZone();
      await created(zone.id, { type: 'A', name: 'twin', content: '192.0.2.1' });
      const duplicate = await create(zone.id, { type: 'A', name: 'twin', content: '192.0.2.1' });
      expect(duplicate.statusCode).toBe(400);
      expect(duplicate.json<ErrorBody>().errors[0]!.message).toBe('Record already exists.');
    });

    it('reports a Cloudflare outage clearly', async () => {
      const zone = await newZone();
      ctx.sandbox.control.injectFault({ method: 'GET', path: `/zones/${zone.id}/dns_records`, status: 503 });
      const outage = await list(zone.id);
      expect(outage.statusCode).toBe(502);
      expect(outage.json<ErrorBody>().message).toBe('Cloudflare is unavailable right now. Please try again.');
    });

    it('reports a rate limit clearly', async () => {
      // Its own account: a long retry-after holds every later call of that token in the console.
      const limitedUser = await ctx.createUser();
      const limitedAccount = await ctx.addAccount(limitedUser, { name: 'Rate limited' });
      const zone = ctx.sandbox.control.addZone(limitedAccount.account_id, 'limited.com');
      await ctx.app.inject({
        method: 'POST',
        url: '/api/cloudflare/zones/sync',
        headers: limitedUser.headers,
      });
      ctx.sandbox.control.injectFault({ method: 'POST', status: 429, retryAfterSeconds: 60 });
      const limited = await create(zone.id, { type: 'A', name: 'x', content: '192.0.2.1' }, limitedUser);
      expect(limited.statusCode).toBe(429);
      expect(limited.json<ErrorBody>().message).toMatch(/rate limiting/);
      expect(ctx.sandbox.control.getDnsRecords(zone.id)).toEqual([]);
    });

    it('rides out a passing Cloudflare failure with retries', async () => {
      const zone = await newZone();
      ctx.sandbox.control.injectFault({
        method: 'POST',
        path: `/zones/${zone.id}/dns_records`,
        status: 502,
        times: 1,
      });
      await created(zone.id, { type: 'A', name: 'retry', content: '192.0.2.1' });
      expect(ctx.sandbox.control.getDnsRecords(zone.id)).toHaveLength(1);
    });
  });

  describe('update', () => {
    it('refuses a TTL on a record made proxied, leaving the record as it was at Cloudflare', async () => {
      const zone = await newZone();
      const old = await created(zone.id, { type: 'A', name: 'edge', content: '192.0.2.1', ttl: 300 });
      ctx.sandbox.control.resetCalls();
      const response = await update(zone.id, old.id, {
        type: 'A',
        name: 'edge',
        content: '192.0.2.1',
        ttl: 300,
        proxied: true,
      });
      expect(response.statusCode).toBe(400);
      expect(refusalOf(response.json<ErrorBody>())).toContain('turn Proxied off to choose a TTL');
      expect(ctx.sandbox.control.callCount({ method: 'PUT' })).toBe(0);
      expect(ctx.sandbox.control.getDnsRecords(zone.id)).toEqual([
        expect.objectContaining({ id: old.id, ttl: 300, proxied: false }),
      ]);
    });

    it('replaces a record in place when its type stays, keeping tags the form does not show', async () => {
      const zone = await newZone();
      const tagged = await ctx.sandbox.app.inject({
        method: 'POST',
        url: `/client/v4/zones/${zone.id}/dns_records`,
        headers: { authorization: `Bearer ${account.tokenValue}` },
        payload: { type: 'A', name: 'app', content: '192.0.2.1', ttl: 1, tags: ['team:web'] },
      });
      const id = tagged.json<{ result: { id: string } }>().result.id;

      const response = await update(zone.id, id, {
        type: 'A',
        name: 'app',
        content: '192.0.2.2',
        ttl: 300,
        proxied: false,
        comment: 'moved',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        id,
        type: 'A',
        name: `app.${zone.domain}`,
        content: '192.0.2.2',
        comment: 'moved',
        priority: null,
        ttl: 300,
        proxied: false,
      });
      expect(ctx.sandbox.control.getDnsRecords(zone.id)).toEqual([
        expect.objectContaining({ id, content: '192.0.2.2', tags: ['team:web'] }),
      ]);
    });

    it('changes the type by creating the new record first, then deleting the old', async () => {
      const zone = await newZone();
      const old = await created(zone.id, { type: 'A', name: 'host', content: '192.0.2.1' });
      ctx.sandbox.control.resetCalls();
      const response = await update(zone.id, old.id, { type: 'AAAA', name: 'host', content: '2001:db8::1' });
      expect(response.statusCode).toBe(200);
      expect(response.json<DnsRecord>()).toMatchObject({ type: 'AAAA', content: '2001:db8::1' });
      expect(response.json<DnsRecord>().id).not.toBe(old.id);
      expect(atCloudflare(zone.id)).toEqual([
        { type: 'AAAA', name: `host.${zone.domain}`, content: '2001:db8::1' },
      ]);
      const writes = ctx.sandbox.control
        .callLog()
        .filter((call) => call.method === 'POST' || call.method === 'DELETE');
      expect(writes.map((call) => call.method)).toEqual(['POST', 'DELETE']);
    });

    it('keeps the old record when deleting it fails after the new one was created', async () => {
      const zone = await newZone();
      const old = await created(zone.id, { type: 'TXT', name: 'note', content: 'hello' });
      ctx.sandbox.control.injectFault({
        method: 'DELETE',
        path: `/zones/${zone.id}/dns_records/${old.id}`,
        status: 500,
      });
      const response = await update(zone.id, old.id, {
        type: 'MX',
        name: 'note',
        content: 'mail.example.net',
      });
      expect(response.statusCode).toBe(502);
      expect(atCloudflare(zone.id)).toEqual([{ type: 'TXT', name: `note.${zone.domain}`, content: 'hello' }]);
    });

    it('deletes first when a CNAME is involved, since a CNAME shares its name with no other record', async () => {
      const zone = await newZone();
      const old = await created(zone.id, {
        type: 'CNAME',
        name: 'www',
        content: 'origin.example.net',
        proxied: true,
      });
      const response = await update(zone.id, old.id, {
        type: 'A',
        name: 'www',
        content: '192.0.2.7',
        proxied: true,
      });
      expect(response.statusCode).toBe(200);
      expect(atCloudflare(zone.id)).toEqual([
        { type: 'A', name: `www.${zone.domain}`, content: '192.0.2.7' },
      ]);

      const back = await update(zone.id, response.json<DnsRecord>().id, {
        type: 'CNAME',
        name: `www.${zone.domain}`,
        content: 'origin.example.net',
      });
      expect(back.statusCode).toBe(200);
      expect(atCloudflare(zone.id)).toEqual([
        { type: 'CNAME', name: `www.${zone.domain}`, content: 'origin.example.net' },
      ]);
    });

    it('re-creates the old record when Cloudflare refuses the new one after the delete', async () => {
      const zone = await newZone();
      const old = await created(zone.id, {
        type: 'CNAME',
        name: 'shop',
        content: 'shops.example.net',
        ttl: 1,
        proxied: true,
        comment: 'storefront',
      });
      // The first create fails through the client's retries; the restoring create then succeeds.
      ctx.sandbox.control.injectFault({
        method: 'POST',
        path: `/zones/${zone.id}/dns_records`,
        status: 500,
        times: 3,
      });
      const response = await update(zone.id, old.id, { type: 'A', name: 'shop', content: '192.0.2.9' });
      expect(response.statusCode).toBe(502);
      expect(response.json<ErrorBody>().message).toBe(
        'Cloudflare is unavailable right now. Please try again.',
      );
      expect(ctx.sandbox.control.getDnsRecords(zone.id)).toEqual([
        expect.objectContaining({
          type: 'CNAME',
          name: `shop.${zone.domain}`,
          content: 'shops.example.net',
          proxied: true,
          comment: 'storefront',
        }),
      ]);
    });

    it('says so when the old record cannot be restored either', async () => {
      const zone = await newZone();
      const old = await created(zone.id, { type: 'CNAME', name: 'lost', content: 'lost.example.net' });
      ctx.sandbox.control.injectFault({ method: 'POST', path: `/zones/${zone.id}/dns_records`, status: 500 });
      const response = await update(zone.id, old.id, { type: 'A', name: 'lost', content: '192.0.2.9' });
      expect(response.statusCode).toBe(502);
      expect(response.json<ErrorBody>().message).toContain(
        `The CNAME record lost.${zone.domain} was deleted and could not be restored`,
      );
    });

    it('answers 404 for a record that does not exist, and 400 for a malformed id', async () => {
      const zone = await newZone();
      const payload = { type: 'A', name: 'x', content: '192.0.2.1' };
      const missing = await update(zone.id, '0'.repeat(32), payload);
      expect(missing.statusCode).toBe(404);
      expect(missing.json<ErrorBody>().message).toBe('DNS record not found.');
      expect((await update(zone.id, 'not-an-id', payload)).statusCode).toBe(400);
    });

    it('validates the new content like a create', async () => {
      const zone = await newZone();
      const record = await created(zone.id, { type: 'A', name: 'x', content: '192.0.2.1' });
      const response = await update(zone.id, record.id, { type: 'A', name: 'x', content: 'nope' });
      expect(response.statusCode).toBe(400);
      expect(response.json<ErrorBody>().message).toContain('IPv4');
    });
  });

  describe('an update whose answer was lost (issue 41)', () => {
    const checked = (found: string) => `Cloudflare's answer was lost; Guardian checked: ${found}.`;

    it('answers the record Cloudflare saved when every answer to the save was lost, saying Guardian checked', async () => {
      const zone = await newZone();
      const record = await created(zone.id, { type: 'A', name: 'www', content: '192.0.2.1' });
      // The save and each of the client's repeats of it: Cloudflare applies them, no answer arrives.
      network.lose(10);
      const response = await update(zone.id, record.id, { type: 'A', name: 'www', content: '192.0.2.2' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<DnsRecord>()).toMatchObject({ id: record.id, content: '192.0.2.2' });
      expect(response.headers[OUTCOME_HEADER]).toBe(checked('the record was updated'));
      expect(atCloudflare(zone.id)).toEqual([
        { type: 'A', name: `www.${zone.domain}`, content: '192.0.2.2' },
      ]);
    });

    it('says the record was not updated when Cloudflare failed every attempt and still has the old one', async () => {
      const zone = await newZone();
      const record = await created(zone.id, { type: 'A', name: 'www', content: '192.0.2.1' });
      ctx.sandbox.control.injectFault({ method: 'PUT', path: `/zones/${zone.id}/dns_records`, status: 503 });
      const response = await update(zone.id, record.id, { type: 'A', name: 'www', content: '192.0.2.2' });
      expect(response.statusCode).toBe(502);
      expect(response.json<ErrorBody>().message).toBe(
        `${checked('the record was not updated')} Please try again.`,
      );
      expect(atCloudflare(zone.id)).toEqual([
        { type: 'A', name: `www.${zone.domain}`, content: '192.0.2.1' },
      ]);
    });

    it('says Guardian could not check when the record cannot be read back either', async () => {
      const zone = await newZone();
      const record = await created(zone.id, { type: 'A', name: 'www', content: '192.0.2.1' });
      network.lose(10, { failReads: true });
      const response = await update(zone.id, record.id, { type: 'A', name: 'www', content: '192.0.2.2' });
      expect(response.statusCode).toBe(502);
      expect(response.json<ErrorBody>().message).toBe(
        "Cloudflare's answer was lost, and Guardian could not check whether the record was updated. Reload the page to see what Cloudflare has before trying again.",
      );
    });

    it('says Guardian could not check, not "try again", when a create was lost and cannot be read back', async () => {
      const zone = await newZone();
      network.lose(1, { method: 'POST', failReads: true });
      const response = await create(zone.id, { type: 'A', name: 'unchecked', content: '192.0.2.7' });
      expect(response.statusCode).toBe(502);
      expect(response.json<ErrorBody>().message).toBe(
        "Cloudflare's answer was lost, and Guardian could not check whether the record was created. Reload the page to see what Cloudflare has before trying again.",
      );
      // It was created: sending it again would have made a second one.
      expect(
        atCloudflare(zone.id).filter((record) => String(record.name).startsWith('unchecked.')),
      ).toHaveLength(1);
    });

    it('keeps the new record of a type change whose delete of the old one was applied but its answer lost', async () => {
      const zone = await newZone();
      const old = await created(zone.id, { type: 'A', name: 'host', content: '192.0.2.1' });
      network.lose(1, { method: 'DELETE' });
      const response = await update(zone.id, old.id, { type: 'AAAA', name: 'host', content: '2001:db8::1' });
      expect(atCloudflare(zone.id)).toEqual([
        { type: 'AAAA', name: `host.${zone.domain}`, content: '2001:db8::1' },
      ]);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<DnsRecord>()).toMatchObject({ type: 'AAAA', content: '2001:db8::1' });
      expect(response.headers[OUTCOME_HEADER]).toBe(checked('the record was updated'));
    });

    it('creates the new record of a clashing type change whose delete of the old one was applied but its answer lost', async () => {
      const zone = await newZone();
      const old = await created(zone.id, { type: 'CNAME', name: 'shop', content: 'shops.example.net' });
      network.lose(1, { method: 'DELETE' });
      const response = await update(zone.id, old.id, { type: 'A', name: 'shop', content: '192.0.2.9' });
      expect(atCloudflare(zone.id)).toEqual([
        { type: 'A', name: `shop.${zone.domain}`, content: '192.0.2.9' },
      ]);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers[OUTCOME_HEADER]).toBe(checked('the record was updated'));
    });

    it('says the type was not changed when the old record outlived a failed delete, and removes the new one again', async () => {
      const zone = await newZone();
      const old = await created(zone.id, { type: 'A', name: 'host', content: '192.0.2.1' });
      ctx.sandbox.control.injectFault({
        method: 'DELETE',
        path: `/zones/${zone.id}/dns_records`,
        status: 503,
        times: 4,
      });
      const response = await update(zone.id, old.id, { type: 'AAAA', name: 'host', content: '2001:db8::1' });
      expect(response.statusCode).toBe(502);
      expect(response.json<ErrorBody>().message).toBe(
        `${checked('the record was not updated')} Please try again.`,
      );
      expect(atCloudflare(zone.id)).toEqual([
        { type: 'A', name: `host.${zone.domain}`, content: '192.0.2.1' },
      ]);
    });
  });

  describe('delete', () => {
    it('deletes the record at Cloudflare', async () => {
      const zone = await newZone();
      const keep = await created(zone.id, { type: 'A', name: 'keep', content: '192.0.2.1' });
      const drop = await created(zone.id, { type: 'A', name: 'drop', content: '192.0.2.2' });
      expect((await remove(zone.id, drop.id)).statusCode).toBe(204);
      expect(ctx.sandbox.control.getDnsRecords(zone.id).map((r) => r.id)).toEqual([keep.id]);
      const again = await remove(zone.id, drop.id);
      expect(again.statusCode).toBe(404);
      expect(again.json<ErrorBody>().message).toBe('DNS record not found.');
    });

    it('keeps the record when Cloudflare fails', async () => {
      const zone = await newZone();
      const record = await created(zone.id, { type: 'A', name: 'x', content: '192.0.2.1' });
      ctx.sandbox.control.injectFault({ method: 'DELETE', status: 503 });
      expect((await remove(zone.id, record.id)).statusCode).toBe(502);
      expect(ctx.sandbox.control.getDnsRecords(zone.id)).toHaveLength(1);
    });
  });

  it('answers 404 on every call for another user’s zone, without calling Cloudflare', async () => {
    const zone = await newZone();
    const record = await created(zone.id, { type: 'A', name: 'mine', content: '192.0.2.1' });
    const intruder = await ctx.createUser();
    await ctx.addAccount(intruder, { name: 'Intruder' });
    ctx.sandbox.control.resetCalls();

    const payload = { type: 'A', name: 'x', content: '192.0.2.66' };
    for (const response of [
      await list(zone.id, intruder),
      await create(zone.id, payload, intruder),
      await update(zone.id, record.id, payload, intruder),
      await remove(zone.id, record.id, intruder),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json<ErrorBody>().message).toBe('Zone not found.');
    }
    expect(ctx.sandbox.control.callCount()).toBe(0);
    expect(ctx.sandbox.control.getDnsRecords(zone.id)).toEqual([
      expect.objectContaining({ content: '192.0.2.1' }),
    ]);
  });
});
