import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  alertEndpoints,
  crowdsecEndpoints,
  jobEndpoints,
  serverEndpoints,
  type AlertsPage,
  type CreatedServer,
  type Job,
  type JobsList,
  type ServerGroup,
} from '@guardian/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../../test/cloudflare-context';
import type { TestUser } from '../../../test/context';
import { requestTo, type EndpointInput } from '../../../test/request';

const BOUNCER_KEY = 'jobs-view-bouncer-key-0123456789';

/**
 * A CrowdSec pull runs each interval as a job: the person's jobs view and the bell's count of jobs
 * ended leave the pulls out, but a failed pull shows there as any failed job (and raises its alert).
 */
describe('CrowdSec pulls in the jobs view', () => {
  let ctx: CloudflareTestContext;
  let alice: TestUser;
  let lapi: HttpServer;
  let lapiUrl: string;
  /** What the fake Local API answers: its decisions, or a refusal of the key. */
  let refuse = false;

  const as = (user: TestUser, endpoint: Parameters<typeof requestTo>[0], input: EndpointInput = {}) =>
    ctx.app.inject({ ...requestTo(endpoint, input), headers: user.headers });
  const jobsOf = async (user: TestUser) => (await as(user, jobEndpoints.list)).json<JobsList>();

  beforeAll(async () => {
    lapi = createServer((request, response) => {
      response.setHeader('Content-Type', 'application/json');
      if (refuse || request.headers['x-api-key'] !== BOUNCER_KEY) {
        response.statusCode = 403;
        response.end('{"message":"access forbidden"}');
        return;
      }
      response.end(JSON.stringify({ new: null, deleted: null }));
    });
    await new Promise<void>((resolve) => lapi.listen(0, '127.0.0.1', resolve));
    lapiUrl = `http://127.0.0.1:${(lapi.address() as AddressInfo).port}`;
    // No sweep of its own during the test: the pulls are the test's.
    ctx = await createCloudflareTestContext({ config: { crowdsecSweepMs: 3_600_000 } });
    alice = await ctx.createUser();
  });
  afterAll(async () => {
    await ctx.close();
    await new Promise((resolve) => lapi.close(resolve));
  });

  it('leaves succeeded pulls out of the view and the bell, and shows a failed one with its alert', async () => {
    const owner = await ctx.addAccount(alice, { name: 'Pulls Co', plan: 'enterprise' });
    const list = ctx.sandbox.control.addList(owner.account_id, { name: 'pulled', kind: 'ip' });
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: '/api/cloudflare/banlists/update',
          headers: alice.headers,
        })
      ).statusCode,
    ).toBe(200);
    const group = await as(alice, serverEndpoints.groupCreate, {
      payload: { name: 'CrowdSec hosts', list_ids: [list.id] },
    });
    expect(group.statusCode, group.body).toBe(201);
    const created = await as(alice, serverEndpoints.create, {
      payload: { name: 'cs-1', group_id: group.json<ServerGroup>().id, integration: 'crowdsec' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const server_id = created.json<CreatedServer>().id;
    const connected = await as(alice, crowdsecEndpoints.connect, {
      params: { server_id },
      payload: { lapi_url: lapiUrl, bouncer_key: BOUNCER_KEY },
    });
    expect(connected.statusCode, connected.body).toBe(200);
    // The person's own job, to see that the view still shows what is not a pull.
    await ctx.app.inject({ method: 'POST', url: '/api/cloudflare/banlists/update', headers: alice.headers });
    await as(alice, jobEndpoints.seen);
    const before = await jobsOf(alice);

    for (let pull = 0; pull < 3; pull++) {
      const pulled = await as(alice, crowdsecEndpoints.pull, { params: { server_id } });
      expect(pulled.statusCode, pulled.body).toBe(200);
    }
    const [ran] = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM jobs WHERE kind = 'crowdsec-pull' AND state = 'succeeded' AND user_id = $1`,
      [alice.id],
    );
    expect(ran!.n).toBe(3);
    const quiet = await jobsOf(alice);
    expect(quiet.jobs.map((job) => job.id)).toEqual(before.jobs.map((job) => job.id));
    expect(quiet.jobs.some((job) => job.kind === 'crowdsec-pull')).toBe(false);
    expect(quiet.unseen).toBe(0);

    refuse = true;
    const failed = await as(alice, crowdsecEndpoints.pull, { params: { server_id } });
    expect(failed.statusCode).toBeGreaterThanOrEqual(400);
    expect(failed.statusCode).toBeLessThan(600);
    const after = await jobsOf(alice);
    const pulls = after.jobs.filter((job: Job) => job.kind === 'crowdsec-pull');
    expect(pulls.map((job) => job.state)).toEqual(['failed']);
    expect(pulls[0]!.error).toContain('403');
    expect(after.unseen).toBe(1);
    // A job's answer goes to its caller as it ends, and its alert is raised or cleared just after.
    const jobAlerts = async () =>
      (await as(alice, alertEndpoints.list, { query: { kind: 'job-failed' } })).json<AlertsPage>().alerts;
    await expect.poll(async () => (await jobAlerts()).map((one) => one.state)).toEqual(['open']);
    expect((await jobAlerts())[0]!.title).toContain('403');

    // The next pull that works resolves the alert, and stays out of the view itself.
    refuse = false;
    expect((await as(alice, crowdsecEndpoints.pull, { params: { server_id } })).statusCode).toBe(200);
    await expect.poll(async () => (await jobAlerts()).map((one) => one.state)).toEqual(['cleared']);
    expect((await jobsOf(alice)).jobs.filter((job) => job.kind === 'crowdsec-pull')).toHaveLength(1);
  });
});
