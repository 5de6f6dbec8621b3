import { CLOUDFLARE_DEFAULTS } from './cloudflare';
import type { Config } from './config';
import { Leases } from './db/leases';
import type { AppDeps } from './deps';
import { AccountsService } from './modules/accounts';
import { AlertCauses, AlertsService } from './modules/alerts';
import { TokenChecks } from './modules/accounts';
import { ApiKeysService } from './modules/api-keys';
import { AuthService, OwnAccountService } from './modules/auth';
import { Sessions } from './modules/auth';
import { BanListItemsRepository } from './modules/ban-list-mirror';
import { OwnedLists } from './modules/ban-list-mirror';
import { ListTurns } from './modules/ban-list-mirror';
import { AccountListWrites } from './modules/ban-list-mirror';
import type { BanListParts } from './modules/ban-list-mirror';
import { BanListsRepository } from './modules/ban-list-mirror';
import { ListCapacity } from './modules/ban-list-mirror';
import { AccountsRepository } from './modules/accounts';
import { BanListItemsService } from './modules/ban-list-items';
import { ItemExpiry } from './modules/ban-list-expiry';
import { BanListsService } from './modules/ban-lists';
import { BanListSyncJobs } from './modules/ban-list-mirror';
import { BanListsJobs } from './modules/ban-lists';
import { ListImportService } from './modules/ban-list-import';
import { ListReconciler } from './modules/ban-list-items';
import { ListWriteBudget } from './cloudflare/list-write-budget';
import { ZonesSyncJobs } from './modules/zones';
import { IpSearchActions } from './modules/ip-search';
import { IpSearchService } from './modules/ip-search';
import { JobQueue } from './jobs/job-queue';
import { JOB_KIND_TABLE } from './jobs/job-kinds';
import { JobsService } from './jobs/jobs.service';
import { DnsRecordsService } from './modules/dns-records';
import { FirewallRulesService, type ListPurposesRead } from './modules/firewall-rules';
import { PageRulesService } from './modules/page-rules';
import { RulesOverviewService } from './modules/rules-overview';
import { ReportsService } from './modules/reports';
import type { SnapshotRestorers } from './modules/snapshots';
import { SnapshotsService } from './modules/snapshots';
import { TwoFactorRepository } from './modules/two-factor';
import { TwoFactorService } from './modules/two-factor';

import { PasswordLinksService } from './modules/users';
import { UsersRepository } from './modules/users';
import { UsersService } from './modules/users';
import { ZoneSettingsService } from './modules/zones';
import { activeServersOf, CrowdsecBouncer, ServerBanWrites, ServersService } from './modules/servers';
import { TicketNotices, TicketsRepository, TicketsService } from './modules/tickets';
import { Mailer, SystemSettings } from './modules/system-settings';
import { OwnedZones, ZonesRepository, ZonesService } from './modules/zones';
import { PlanLimits, PlansService } from './modules/plans';
import {
  NotificationChannelsRepository,
  NotificationChannelsService,
  WebhookChannels,
} from './modules/notification-webhooks';
import { NotificationDispatch, NotificationPreferences } from './modules/notifications';

/** How long a call that starts a job (a sync, Update, Clean All) waits for it before it answers 202 with the job. */
const SYNC_WAIT_MS = 5_000;

/**
 * The ban-list modules' collaborators, built once per app: the person's lists, their write turns (each
 * list's and each Cloudflare account's, on the same leases) and the repositories.
 */
export function createBanListParts(config: Config, deps: AppDeps): BanListParts {
  const leases = new Leases(deps.db);
  const listRecords = new BanListsRepository(deps.db);
  const accountRecords = new AccountsRepository(deps.db);
  const owned = new OwnedLists(listRecords, accountRecords, deps, deps.answerCaches);
  return {
    db: deps.db,
    owned,
    turns: new ListTurns(leases, owned),
    writes: new AccountListWrites(
      leases,
      config.cloudflare.deadlineMs ?? CLOUDFLARE_DEFAULTS.deadlineMs,
      // Cloudflare's Lists write budget per account, counted in the database for every process.
      new ListWriteBudget(deps.db, config.jobs?.listWriteLimits),
    ),
    lists: listRecords,
    items: new BanListItemsRepository(deps.db),
    accounts: accountRecords,
    answerCaches: deps.answerCaches,
  };
}

/**
 * Every service of the app, built once from its config and dependencies (their caches, locks and
 * sessions are per app); buildApp hands each route plugin the ones it uses.
 */
export function createServices(config: Config, deps: AppDeps) {
  // System Setting: read from the database by every part below each time it applies one (no restart).
  const systemSettings = new SystemSettings(deps.db, config, deps.tokenCipher, (err) =>
    deps.logger?.error({ err }, 'could not read the system settings'),
  );
  const settingsNow = () => systemSettings.current();
  // The sign-in slow-down and the session lifetime as the settings say now (the limiters read each field at each use).
  const loginRateLimit: Config['loginRateLimit'] = {
    get windowSeconds() {
      return settingsNow().loginRateLimit.windowSeconds;
    },
    get maxFailuresPerEmail() {
      return settingsNow().loginRateLimit.maxFailuresPerEmail;
    },
    get maxFailuresPerAddress() {
      return settingsNow().loginRateLimit.maxFailuresPerAddress;
    },
  };
  const liveConfig: Config = {
    ...config,
    loginRateLimit,
    get tokenTtlSeconds() {
      return settingsNow().sessionTtlSeconds;
    },
  };
  const users = new UsersRepository(deps.db);
  // Alerts are raised where their causes happen: each module is handed the one function it calls.
  const listCapacity = new ListCapacity(deps.db);
  const alertCauses = new AlertCauses(
    deps.db,
    (err) => deps.logger?.error({ err }, 'could not record an alert'),
    (afterRef, limit) => listCapacity.allAccounts(afterRef, limit),
    undefined,
    () => settingsNow().resolvedAlertRetentionMs,
  );
  // Alerts posted to the notification channels: queued in the database, posted by each process's sweep.
  const channelRecords = new NotificationChannelsRepository(deps.db);
  const webhookChannels = new WebhookChannels(
    channelRecords,
    deps.tokenCipher,
    { failing: alertCauses.channelFailing, delivered: alertCauses.channelDelivered },
    (err) => deps.logger?.error({ err }, 'could not deliver to the notification channels'),
    { publicUrl: config.publicUrl, loopbackHttp: config.notificationLoopbackHttp },
  );
  // New alerts are told beyond the console by each person's choice: e-mail (batched) and webhooks.
  const mailer = new Mailer(() => systemSettings.smtp());
  // Outgoing e-mail is set up when System Setting (or the environment) names a host and a sender.
  const emailSetUp = () => Boolean(settingsNow().smtp.host && settingsNow().smtp.sender);
  const notificationDispatch = new NotificationDispatch(
    deps.db,
    { isSetUp: emailSetUp, send: (mail) => mailer.send(mail) },
    { failed: alertCauses.notificationFailed, delivered: alertCauses.notificationDelivered },
    (err) => deps.logger?.error({ err }, 'could not send a notification'),
    {
      windowMs: config.notifications.mailWindowMs,
      sweepMs: config.notifications.mailSweepMs,
      publicUrl: config.publicUrl,
      now: deps.notificationClock,
      webhooks: webhookChannels,
    },
  );
  alertCauses.onNewAlert(notificationDispatch.notify);
  const sessions = new Sessions(users, liveConfig, deps.sessionClock);
  // A change that ends someone's sessions makes this process forget what it kept of them.
  const sessionsEnded = (userId: number) => sessions.forgetUser(userId);
  const twoFactor = new TwoFactorService(
    new TwoFactorRepository(deps.db),
    deps.tokenCipher,
    liveConfig,
    alertCauses.twoFactorReset,
  );
  systemSettings.setTwoFactorRequired((required) => twoFactor.setRequired(required));
  const snapshots = new SnapshotsService(deps.db, () => settingsNow().snapshotRetentionMs);
  const banListParts = createBanListParts(config, deps);
  const { owned } = banListParts;
  const banLists = new BanListsService(banListParts, snapshots);
  // Long operations run as jobs on the database's queue; the app starts and stops its worker.
  const jobQueue = new JobQueue(deps.db, JOB_KIND_TABLE, {
    logger: deps.logger,
    onEnded: alertCauses.jobEnded,
  });
  const jobs = new JobsService(jobQueue, config.jobs?.waitMs ?? SYNC_WAIT_MS);
  const banListSyncJobs = new BanListSyncJobs(banListParts, jobs);
  const banListsJobs = new BanListsJobs(banLists, jobs);
  // A list write whose outcome was lost and could not be found out is read back by the list's sync.
  const listReconciler = new ListReconciler(jobs);
  const banListItems = new BanListItemsService(banListParts, listReconciler, {
    refused: alertCauses.banRefused,
    applied: alertCauses.banApplied,
  });
  // Expired items are removed by a job per account, queued by each process's periodic sweep.
  const itemExpiry = new ItemExpiry(banListParts, jobQueue, config.itemExpirySweepMs, (err) =>
    deps.logger?.error({ err }, 'could not look for expired ban list items'),
  );
  systemSettings.onChange((settings) => itemExpiry.setSweepInterval(settings.itemExpirySweepMs));
  const listImport = new ListImportService(banListParts, jobs, listReconciler);
  // The IP search's Ban everywhere and Remove from lists: a job per account, through the items service.
  const ipSearchActions = new IpSearchActions(banListParts, banListItems, jobs);
  const ipSearch = new IpSearchService(deps.db, owned, deps.answerCaches);
  // Servers' bans: stored by the ban call, written per account by a job, as an import's items are.
  const serverBanWrites = new ServerBanWrites(
    deps.db,
    banListParts.lists,
    listImport,
    banListItems,
    jobQueue,
    (err) => deps.logger?.error({ err }, "could not look for servers' pending bans"),
  );
  const alerts = new AlertsService(deps.db);
  // Each side of a ticket is told by its alerts: in the console, and by e-mail through the notifications.
  const ticketRecords = new TicketsRepository(deps.db);
  const ticketNotices = new TicketNotices(alertCauses, () => ticketRecords.administrators());
  const servers = new ServersService(
    deps.db,
    owned,
    async (accountRef) => {
      // Not queued now (the queue stopping, the database busy): the sweep queues it.
      await serverBanWrites
        .trigger(accountRef)
        .catch((err: unknown) => deps.logger?.warn({ err }, "could not queue a job of servers' bans"));
    },
    deps.tokenCipher,
    alertCauses.serverRefused,
  );
  // CrowdSec servers' Local APIs, pulled by a job each interval into the servers' own bans.
  const crowdsec = new CrowdsecBouncer(
    deps.db,
    deps.tokenCipher,
    servers,
    jobQueue,
    jobs,
    (err) => deps.logger?.error({ err }, "could not look for CrowdSec servers' pulls"),
    config.crowdsecSweepMs,
  );
  const zoneRecords = new ZonesRepository(deps.db);
  // The person's zones, for every service that acts on one.
  const ownedZones = new OwnedZones(zoneRecords, deps);
  const zones = new ZonesService(deps, zoneRecords, banListParts.accounts, ownedZones);
  const zonesSyncJobs = new ZonesSyncJobs(zones, jobs);
  // Each kind of JOB_KIND_TABLE (src/jobs/job-kinds.ts) and the service that does its work.
  jobQueue.handle({
    'ban-list-sync': banListSyncJobs.run,
    'ban-lists-update': banListsJobs.runUpdate,
    'ban-lists-clean': banListsJobs.runClean,
    'zones-sync': zonesSyncJobs.run,
    'ban-everywhere': ipSearchActions.runBan,
    'ip-search-remove': ipSearchActions.runRemove,
    'ban-list-import': listImport.run,
    'ban-list-expiry': itemExpiry.run,
    'server-bans': serverBanWrites.run,
    'crowdsec-pull': crowdsec.run,
  });
  const dns = new DnsRecordsService(deps, ownedZones, snapshots);
  // Whoever reads a zone's WAF rules (its rules screen, the rules overview) tells the lists what the
  // rules say of them (issue 35 item 9).
  const rulePurposesRead: ListPurposesRead = (accountRef, purposes) =>
    banListParts.lists.setRulePurposes(accountRef, purposes);
  // Snapshots put things back through the modules that own them, without importing them.
  const restorers: SnapshotRestorers = {
    banList: (person, list, items, options) => banLists.restore(person, list, items, options),
    dnsRecord: (userId, record) => dns.restore(userId, record),
  };
  return {
    users,
    sessions,
    plans: new PlansService(deps.db),
    // Each person's additions take turns on their own lease while their plan's limits are counted.
    planLimits: new PlanLimits(deps.db, new Leases(deps.db)),
    userAdmin: new UsersService(users, config.passwordHashing, sessionsEnded),
    passwordLinks: new PasswordLinksService(users, config.passwordHashing, loginRateLimit, sessionsEnded),
    ownAccount: new OwnAccountService(users, sessions, config.passwordHashing, loginRateLimit),
    auth: new AuthService(users, sessions, twoFactor, liveConfig, alertCauses.signedIn),
    twoFactor,
    // A newly added account's lists are recorded and each list's sync queued at once (issue 35 item 5).
    accounts: new AccountsService(deps.db, banListParts.accounts, deps.cloudflare, deps.tokenCipher, {
      bringIn: async (userId, account) => {
        const lists = await banListSyncJobs.bringIn(userId, account);
        // Its zones too (issue 35 item 6): their plans are the account's Lists plan. One page is read
        // while the person waits; the rest, or all of them when that read failed, come by a zones
        // update queued with the lists' syncs.
        const read = await zones.bringIn(account).catch((err: unknown) => {
          deps.logger?.warn({ err }, "could not read a newly added account's zones");
          return { complete: false };
        });
        if (!read.complete) await zonesSyncJobs.queue(userId);
        return lists;
      },
      dropItems: async (tx, listRefs) => {
        const items = new BanListItemsRepository(tx);
        for (const ref of listRefs) await items.dropAll(ref);
      },
    }),
    tokenChecks: new TokenChecks(
      banListParts.accounts,
      deps,
      (err) => deps.logger?.warn({ err }, 'could not check an account API token at Cloudflare'),
      undefined,
      (account, state) =>
        alertCauses.tokenChecked({
          id: account.id,
          userId: account.userId,
          accountName: account.accountName,
          status: state.status,
          expiresOn: state.expiresOn,
        }),
    ),
    banLists,
    banListItems,
    // The export reads the mirror directly, searching as the items screen does.
    banListExport: { owned, items: banListParts.items, search: banListItems },
    itemExpiry,
    ipSearch,
    ipSearchActions,
    banListSyncJobs,
    banListsJobs,
    listImport,
    jobQueue,
    jobs,
    zones,
    zonesSyncJobs,
    zoneSettings: new ZoneSettingsService(ownedZones),
    dns,
    firewall: new FirewallRulesService(deps, ownedZones, rulePurposesRead),
    pageRules: new PageRulesService(ownedZones),
    rulesOverview: new RulesOverviewService(deps, zoneRecords, rulePurposesRead),
    // Cloudflare's analytics of the person's zones; a source IP is checked against their lists.
    reports: new ReportsService(
      deps,
      ipSearch,
      {
        activeServers: (userId) => activeServersOf(servers, userId),
        openAlerts: (userId) => alerts.openCount(userId),
      },
      config.reportFirstAnswerMs,
    ),
    snapshots,
    restorers,
    apiKeys: new ApiKeysService(deps.db, alertCauses.apiKeyCreated),
    servers,
    serverBanWrites,
    crowdsec,
    alerts,
    alertCauses,
    tickets: new TicketsService(deps.db, ticketNotices),
    systemSettings,
    webhookChannels,
    notificationChannels: new NotificationChannelsService(channelRecords, deps.tokenCipher, webhookChannels, {
      loopbackHttp: config.notificationLoopbackHttp,
      environment: config.notificationWebhook,
    }),
    mailer,
    notificationDispatch,
    notificationPreferences: new NotificationPreferences(deps.db),
    emailSetUp,
  };
}
