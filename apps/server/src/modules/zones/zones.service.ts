import {
  listPlanOf,
  type AddZoneRequest,
  type AddZoneResponse,
  type SyncZonesResponse,
  type ZonesPageQuery,
} from '@guardian/contract';
import Cloudflare from 'cloudflare';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import { accountClient, cloudflareErrorToAppError, isCloudflareNotFound } from '../../cloudflare';
import { usableAnswer, zoneAnswer } from '../../cloudflare/answers';
import { createOnce } from '../../cloudflare/create-once';
import { AppError } from '../../app-error';
import { analyzeAfterWriting } from '../../db';
import type { AccountRecord, AccountsRepository } from '../accounts';
import { fetchAllPages } from './all-pages';
import type { OwnedZones } from './owned-zone';
import { ZoneListCache } from './zone-list-cache';
import { ZonesRepository, type CloudflareZoneFields, type VersionedJson } from './zones.repository';

/** Cloudflare's largest zones page. */
const ZONES_PER_PAGE = 50;
/**
 * The most zones one account's sync reads (200 calls): well past the 1,000 Cloudflare allows an
 * account without asking; a list claiming more is refused rather than followed.
 */
const MAX_ZONES_PER_ACCOUNT = 10_000;

type CloudflareZone = z.infer<typeof zoneAnswer>;

/** What a job gives the sync: a way to stop between pages and to say how far it got. */
export interface SyncSteps {
  signal?: AbortSignal;
  /** Zones pages read, of all the accounts announce (an account not answered yet counts one). */
  progress?: (done: number, total: number) => void;
}

/** The pages Cloudflare announces in a zones answer (checked properly by fetchAllPages). */
function announcedPages(answer: { result_info?: object }): number | undefined {
  const pages = (answer.result_info as { total_pages?: unknown } | undefined)?.total_pages;
  return typeof pages === 'number' && Number.isInteger(pages) && pages > 0 ? pages : undefined;
}

function mirrorFields(zone: CloudflareZone): CloudflareZoneFields {
  return {
    zoneId: zone.id,
    domain: zone.name,
    status: zone.status ?? 'unknown',
    nameServers: zone.name_servers ?? [],
    plan: listPlanOf(zone.plan?.legacy_id),
  };
}

/**
 * Zones live at Cloudflare; the console keeps a mirror of them (the `zones` table) so the zones screen
 * lists a thousand zones in one query. Every write goes to Cloudflare first, then to the mirror.
 */
export class ZonesService {
  private readonly listCache: ZoneListCache;

  /** The repositories are the app's (built once at the composition root); a transaction builds its own. */
  constructor(
    private readonly deps: AppDeps,
    private readonly zones: ZonesRepository,
    private readonly accounts: AccountsRepository,
    private readonly ownedZones: OwnedZones,
  ) {
    this.listCache = new ZoneListCache(deps.answerCaches);
  }

  /**
   * The user's zones as the JSON of `Zone[]`: kept while the mirror's version for the user is
   * unchanged (see `kept`).
   */
  async listJson(userId: number): Promise<Buffer> {
    return this.kept(userId, 'list', (knownVersion) => this.zones.listJsonForUser(userId, knownVersion));
  }

  /** One page of the user's zones as the JSON of `ZonesPage`: kept as the list is (see `kept`). */
  async pageJson(userId: number, query: ZonesPageQuery): Promise<Buffer> {
    const request = {
      search: query.search,
      sort: query.sort,
      order: query.order,
      limit: query.per_page,
      offset: (query.page - 1) * query.per_page,
    };
    return this.kept(userId, `page ${JSON.stringify(request)}`, (knownVersion) =>
      this.zones.pageJsonForUser(userId, request, knownVersion),
    );
  }

  /**
   * An answer about the user's zones from memory while the mirror's version for the user is
   * unchanged (checked at most once a second, see ZoneListCache), else read with its version in one
   * statement (the first request after a change costs what a version check does, plus the rows).
   */
  private async kept(
    userId: number,
    answer: string,
    read: (knownVersion?: string) => Promise<VersionedJson>,
  ): Promise<Buffer> {
    const fresh = this.listCache.fresh(userId, answer);
    if (fresh) return fresh;
    let current = await read(this.listCache.keptVersion(userId, answer));
    if (current.json === null) {
      const confirmed = this.listCache.get(userId, answer, current.version);
      if (confirmed) return confirmed;
      // The kept answer went while its version was read (another request stored a newer one).
      current = await read();
    }
    const bytes = Buffer.from(current.json!);
    this.listCache.set(userId, answer, current.version, bytes);
    return bytes;
  }

  /** Every write to the mirror goes through this, so this process's reads show it at once. */
  private async writing<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } finally {
      this.listCache.changed();
    }
  }

  async add(userId: number, request: AddZoneRequest): Promise<AddZoneResponse> {
    const account = await this.accounts.findOwnedByCloudflareId(userId, request.account_id);
    if (!account) throw new AppError('NOT_FOUND', 'Account not found.');
    const cf = accountClient(this.deps, account);
    const name = request.domain;
    const zone = usableAnswer(
      zoneAnswer,
      await createOnce(
        () => cf.zones.create({ account: { id: account.accountId }, name, type: 'full' }),
        async () =>
          (await cf.zones.list({ account: { id: account.accountId }, name })).result.find(
            (candidate) => candidate.name.toLowerCase() === name.toLowerCase(),
          ),
      ),
      'the new zone',
    );
    await this.writing(() => this.zones.upsert(account.id, mirrorFields(zone)));
    return {
      result: {
        id: zone.id,
        name: zone.name,
        status: zone.status ?? 'pending',
        name_servers: zone.name_servers ?? [],
      },
    };
  }

  /**
   * Pulls every zone of every account of the user and makes each account's mirror equal to it, one
   * transaction per account. An account that fails keeps its old mirror; the others are still
   * refreshed, and the first failure is reported with the account's name. A stop asked for (between
   * pages) leaves the accounts not finished yet as they were.
   */
  async sync(userId: number, steps: SyncSteps = {}): Promise<SyncZonesResponse> {
    const accounts = await this.accounts.listForUser(userId);
    const pages = accounts.map(() => ({ read: 0, total: 1 }));
    const report = () =>
      steps.progress?.(
        pages.reduce((sum, account) => sum + account.read, 0),
        pages.reduce((sum, account) => sum + Math.max(account.total, account.read), 0),
      );
    report();
    const outcomes = await Promise.allSettled(
      accounts.map((account, index) =>
        this.syncAccount(account, steps.signal, (total) => {
          pages[index]!.read += 1;
          if (total !== undefined) pages[index]!.total = total;
          report();
        }),
      ),
    );
    const written = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.written : 0));
    await analyzeAfterWriting(
      this.deps.db,
      'zones',
      written.reduce((sum, rows) => sum + rows, 0),
    );
    steps.signal?.throwIfAborted();
    const failed = outcomes.findIndex((outcome) => outcome.status === 'rejected');
    if (failed >= 0) {
      const reason = (outcomes[failed] as PromiseRejectedResult).reason;
      const appError = reason instanceof AppError ? reason : cloudflareErrorToAppError(reason);
      if (!appError) throw reason;
      throw new AppError(
        appError.code,
        `Could not update the zones of "${accounts[failed]!.accountName}": ${appError.message}`,
        {
          retryAfterSeconds: appError.details.retryAfterSeconds,
          cause: reason,
        },
      );
    }
    const counts = outcomes.map(
      (outcome) => (outcome as PromiseFulfilledResult<{ zones: number }>).value.zones,
    );
    return { zones: counts.reduce((sum, count) => sum + count, 0) };
  }

  /**
   * Reads the first page of a newly added account's zones into the mirror (one call, while the person
   * waits for the add), so what depends on them is right from the first screen: the account's Lists
   * plan, learned from its zones' plans. Answers whether that page was all of them; when it was not,
   * the rest is for a zones update.
   */
  async bringIn(account: AccountRecord): Promise<{ complete: boolean }> {
    const what = "the account's zones";
    const answer = await accountClient(this.deps, account).zones.list({
      account: { id: account.accountId },
      per_page: ZONES_PER_PAGE,
      page: 1,
    });
    const zones = usableAnswer(zoneAnswer.array().max(ZONES_PER_PAGE), answer.result, what).map(mirrorFields);
    const pages = announcedPages(answer);
    await this.writing(() =>
      this.deps.db.transaction((tx) => new ZonesRepository(tx).replaceForAccount(account.id, zones)),
    );
    return { complete: pages === undefined ? zones.length < ZONES_PER_PAGE : pages <= 1 };
  }

  async remove(userId: number, zoneId: string): Promise<void> {
    const { zone, cf } = await this.ownedZones.require(userId, zoneId);
    try {
      await cf.zones.delete({ zone_id: zone.zoneId });
    } catch (err) {
      // Already deleted at Cloudflare (elsewhere): what is left to do is forget it here.
      if (!isCloudflareNotFound(err)) throw err;
    }
    await this.writing(() => this.zones.removeEverywhere(zone.zoneId));
  }

  /** Answers how many zones the account has now, and how many rows of the mirror that wrote or dropped. */
  private async syncAccount(
    account: AccountRecord,
    signal?: AbortSignal,
    onPage?: (totalPages: number | undefined) => void,
  ): Promise<{ zones: number; written: number }> {
    const zones = await this.fetchAllZones(
      accountClient(this.deps, account),
      account.accountId,
      signal,
      onPage,
    );
    signal?.throwIfAborted();
    const written = await this.writing(() =>
      this.deps.db.transaction((tx) => new ZonesRepository(tx).replaceForAccount(account.id, zones)),
    );
    return { zones: zones.length, written };
  }

  private async fetchAllZones(
    cf: Cloudflare,
    accountId: string,
    signal?: AbortSignal,
    onPage?: (totalPages: number | undefined) => void,
  ): Promise<CloudflareZoneFields[]> {
    const zones = await fetchAllPages(
      {
        what: "the account's zones",
        item: zoneAnswer,
        perPage: ZONES_PER_PAGE,
        maxItems: MAX_ZONES_PER_ACCOUNT,
      },
      async (page) => {
        signal?.throwIfAborted();
        const answer = await cf.zones.list({ account: { id: accountId }, per_page: ZONES_PER_PAGE, page });
        onPage?.(announcedPages(answer));
        return answer;
      },
    );
    return zones.map(mirrorFields);
  }
}
