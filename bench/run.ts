/**
 * `npm run bench`: holds Guardian to its performance budgets at the scale people use it (ban lists of
 * 500,000 items, 1,000 zones) and prints one table; the same figures go to bench/results/ as JSON.
 * bench/README.md explains every figure. Options: `node --import tsx bench/run.ts --help`.
 *
 * This file only sets the stack up (sandbox, seed, server, two people and their accounts), runs the
 * sections `--only=` / `--skip=` select (sections/, one module each) and writes the report.
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { accountEndpoints } from '@guardian/contract';
import { fillLists, seedSandbox } from './dataset';
import { jobsEnded } from './lib/jobs';
import { api } from './lib/api';
import { buildChildren } from './lib/build-children';
import { fmt, readSoak, Report } from './lib/report';
import { ROOT, startSandbox, startServer } from './lib/stack';
import {
  BIG_LIST_ITEMS,
  CONNECTIONS,
  DURATION_S,
  OPTIONS_RECORD,
  RESULTS_DIR,
  runs,
  SECTIONS,
  WEB_DIST,
  writeResults,
  ZONE_COUNT,
} from './options';
import { reasonOf, type Context } from './sections/context';
import { sections } from './sections';
import { syncZones } from './sections/zones';

// ---------------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------------

function gitDescribe(): { commit: string; dirty: boolean } {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain', '--', 'apps', 'packages'], {
        cwd: ROOT,
        encoding: 'utf8',
      }).trim() !== '';
    return { commit, dirty };
  } catch {
    return { commit: 'unknown', dirty: false };
  }
}

async function main(): Promise<number> {
  const startedAt = new Date();
  const started = performance.now();
  const loadBefore = loadavg();
  const report = new Report();
  const cleanups: (() => Promise<void> | void)[] = [];
  const cleanup = async () => {
    for (const step of cleanups.reverse())
      await Promise.resolve(step()).catch((err: unknown) => console.error('cleanup:', err));
    cleanups.length = 0;
  };
  const onSignal = () => {
    console.error('\nInterrupted: cleaning up.');
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  console.log(
    `Guardian benchmark: ${fmt.int(BIG_LIST_ITEMS)} items, ${fmt.int(ZONE_COUNT)} zones, ${CONNECTIONS} connections x ${DURATION_S} s; ` +
      `load average ${loadBefore.map((v) => v.toFixed(2)).join(' ')} on ${cpus().length} cores.`,
  );
  let database = 'unknown';
  try {
    const timed = await startSandbox();
    cleanups.push(() => timed.sandbox.close());
    const seeded = await seedSandbox(timed);
    const bundles = await buildChildren();
    const server = await startServer({
      bundle: bundles.server,
      sandboxUrl: timed.baseUrl,
      databaseUrl: process.env.DATABASE_URL,
      webDist: WEB_DIST,
      // The expiry section's items go within a second of being due (the default sweep is a minute).
      env: { GUARDIAN_EXPIRY_SWEEP_SECONDS: '1' },
    });
    cleanups.push(() => server.stop());
    database = server.database;
    console.log(
      `Guardian is up on ${server.origin} (${server.database}${server.schema ? `, schema ${server.schema}` : ''}).`,
    );

    const listsUser = await server.createUser();
    const zonesUser = await server.createUser();
    const ctx: Context = {
      report,
      bundles,
      timed,
      server,
      seeded,
      lists: api(server.origin, listsUser.token),
      zones: api(server.origin, zonesUser.token),
      listKeys: {},
    };
    // Accounts through the API, as a person adds them (the token is verified at the sandbox).
    for (const account of seeded.listAccounts) {
      await ctx.lists.request('POST', accountEndpoints.add.path, {
        account_name: account.name,
        token: account.token,
      });
    }
    // Adding an account queues its lists' syncs (still empty here): ended before the lists are filled.
    await jobsEnded(ctx.lists, 60_000);
    fillLists(timed, seeded);
    for (const account of seeded.zoneAccounts) {
      await ctx.zones.request('POST', accountEndpoints.add.path, {
        account_name: account.name,
        token: account.token,
      });
    }
    await syncZones(ctx);

    for (const name of SECTIONS) {
      if (!runs(name)) continue;
      const sectionStart = performance.now();
      console.log(`\n== ${name} ==`);
      try {
        await sections[name](ctx);
      } catch (err) {
        report.missing(name, `failed: ${reasonOf(err)}`);
        console.error(err);
      }
      console.log(`   (${fmt.ms(performance.now() - sectionStart)})`);
    }
  } catch (err) {
    report.missing('Setup', reasonOf(err));
    console.error(err);
  } finally {
    await cleanup();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  const soak = readSoak(RESULTS_DIR);
  report.row({
    section: 'Soak',
    figure: 'p99 under sustained load (npm run test:load)',
    value: soak ? `${fmt.ms(soak.p99)}${soak.date ? ` (${soak.date})` : ''}` : '-',
    note: soak ? undefined : 'no bench/results/soak.json yet',
  });
  report.data.soak = soak;

  const loadAfter = loadavg();
  const totalS = (performance.now() - started) / 1000;
  console.log(`\n${report.print()}`);
  console.log(
    `\nRun took ${totalS.toFixed(0)} s on ${database}; load average before ${loadBefore.map((v) => v.toFixed(2)).join(' ')}, after ${loadAfter.map((v) => v.toFixed(2)).join(' ')}.`,
  );
  if (writeResults) {
    const { file, latest } = report.write(
      RESULTS_DIR,
      {
        date: startedAt.toISOString(),
        database,
        git: gitDescribe(),
        machine: {
          cpus: cpus().length,
          cpuModel: cpus()[0]?.model,
          node: process.version,
          loadBefore,
          loadAfter,
        },
        serverNodeArgs: process.env.BENCH_SERVER_NODE_ARGS ?? null,
        options: OPTIONS_RECORD,
        durationS: totalS,
      },
      process.env.BENCH_SERVER_NODE_ARGS || process.env.BENCH_LIVE_HEAP ? 'what-if' : undefined,
    );
    const shown = (path: string) => path.replace(ROOT + '/', '');
    console.log(
      `Wrote ${shown(file)}${latest ? ` and ${shown(latest)}` : ' (a what-if run: latest.json unchanged)'}.`,
    );
  }
  return report.budgets.some((b) => b.verdict === 'fail') ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(2);
  },
);
