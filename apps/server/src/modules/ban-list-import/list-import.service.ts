import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  BAN_LIST_IMPORT_LINES_MAX,
  BAN_LIST_IMPORT_PREVIEW_MINUTES,
  LIST_PLAN_NAMES,
  capacityWarning,
  isInetText,
  type BanList,
  type BanListImportPreview,
  type BanListImportPreviewRequest,
  type BanListImportResult,
} from '@guardian/contract';
import type Cloudflare from 'cloudflare';
import { writeListItems, WriteOutcomeUnknown } from '../../cloudflare';
import { refuseBeyondPlan } from '../plans';
import { AppError } from '../../app-error';
import type { GuardianJobHandler } from '../../jobs/job-kinds';
import type { JobsService } from '../../jobs/jobs.service';
import { banListNotFound, toBanListDto } from '../ban-list-mirror';
import type { BanListRecord } from '../ban-list-mirror';
import { ListCapacity, requireRoom } from '../ban-list-mirror';
import { countLines, parseImport } from './list-import';
import { ListImportRepository, type StoredImport, type StoredImportItem } from './list-import.repository';
import { MirrorRecording, withdrawLeftovers, type ImportedItem } from './mirror-recording';
import { keyOfCloudflareItem, parseItemValue } from '../ban-list-mirror';
import { CLOUDFLARE_ITEMS_PER_PAGE, listItemPages } from '../ban-list-mirror';
import { toMirrorItem } from '../ban-list-mirror';
import { newPendingItemId } from '../ban-list-mirror';
import { lostBecause, lostWriteEnd, OUTCOME_WAIT_JOB_MS, type ListReconciler } from '../ban-list-items';
import { ListWriter, type ListWriterParts } from '../ban-list-mirror';

type CloudflareItemInput = Cloudflare.Rules.Lists.ItemCreateParams['body'][number];
/** Pages followed past what the list's count needs (items another write added meanwhile). */
const EXTRA_PAGES = 3;
/** Read-backs of a lost write that found none of it (its operation may still run), and the first pause. */
const READS_MAX = 3;
const READ_AGAIN_MS = 1_000;

/**
 * The most items one Cloudflare write (POST .../items) takes. Cloudflare documents no maximum per
 * request: the OpenAPI schema's body is an array without maxItems, and the Lists API page names only
 * the account's quota (at most 500,000 items) and the write budget (1,000,000 item changes and 30,000
 * requests per 12 hours). So an import (at most BAN_LIST_IMPORT_LINES_MAX lines) is one write; should
 * Cloudflare document a maximum, it goes here and the import is sent in ceil(n / max) writes.
 */
export const CLOUDFLARE_ITEMS_PER_WRITE = Number.POSITIVE_INFINITY;

export { IMPORT_RECORD_BATCH } from './mirror-recording';

const PRESET_MS: Record<string, number> = {
  '1h': 3_600_000,
  '1d': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};

/** When an item with the import's expiry choice expires (null: never), counted from `now`. */
export function expiryOfChoice(choice: string, now = new Date()): Date | null {
  if (choice === 'never') return null;
  const preset = PRESET_MS[choice];
  if (preset !== undefined) return new Date(now.getTime() + preset);
  const at = Date.parse(choice);
  if (!Number.isFinite(at) || at <= now.getTime())
    throw new AppError('BAD_REQUEST', 'The expiry date must be in the future.');
  return new Date(at);
}

/** The writes an import of `count` items takes (the fewest Cloudflare's per-request maximum allows). */
export function writesFor(count: number, perWrite = CLOUDFLARE_ITEMS_PER_WRITE): number {
  return count === 0 ? 0 : Math.max(1, Math.ceil(count / perWrite));
}

const previewGone = () =>
  new AppError(
    'NOT_FOUND',
    `This import's preview is not there any more (a preview lasts ${BAN_LIST_IMPORT_PREVIEW_MINUTES} minutes and is applied once). Please preview the import again.`,
  );

export interface ImportActor {
  userId: number;
  /** How the Added by column names them (their e-mail, with the API key's name for an API call). */
  name: string;
  /** The items' provenance: an import, or a call with a key (a server's bans). */
  via?: 'import' | 'api';
}

/**
 * Import into a list (issue 15): a preview reads and checks every line and keeps what it would add
 * (migration 020) without calling Cloudflare; applying it is a job that sends only the items the list
 * does not have, in one write per CLOUDFLARE_ITEMS_PER_WRITE, within the account's write turn and
 * budget. Once Cloudflare completed a write, its items are recorded in the mirror at once, as sent,
 * under provisional ids (Cloudflare's answer is an operation id; reading a 400,000-item list back to
 * learn its ids took ~1,000 calls): Cloudflare's ids are learned when first needed (item-ids.ts, a
 * sync by the items' values). Only after a fault in a write or its wait, when what reached Cloudflare
 * is unknown, is the list read back (until every item of that write is found), and what of it
 * Cloudflare holds recorded with Cloudflare's ids.
 */
export class ListImportService extends ListWriter {
  private readonly imports: ListImportRepository;

  constructor(
    parts: ListWriterParts,
    private readonly jobs: JobsService,
    /** Where a write whose outcome could not be found out is read back later. */
    private readonly reconciler: ListReconciler,
  ) {
    super(parts);
    this.imports = new ListImportRepository(this.db);
  }

  async preview(
    userId: number,
    listId: string,
    request: Required<BanListImportPreviewRequest>,
  ): Promise<BanListImportPreview> {
    const list = await this.owned.requireList(userId, listId);
    const lines = countLines(request.text);
    if (lines > BAN_LIST_IMPORT_LINES_MAX) {
      throw new AppError(
        'BAD_REQUEST',
        `The import has ${lines.toLocaleString('en-US')} lines; at most ${BAN_LIST_IMPORT_LINES_MAX.toLocaleString('en-US')} are taken at once. Please split it.`,
      );
    }
    const parsed = parseImport(list.kind, request.text, request.format);
    const listed = await this.imports.existingKeys(
      list.ref,
      list.kind,
      parsed.items.map((entry) => entry.item.key),
    );
    const fresh = parsed.items.filter((entry) => !listed.has(entry.item.key));
    const capacity = await new ListCapacity(this.db).ofAccount(userId, list.accountId);
    const refused = capacityWarning(capacity, { items: fresh.length });
    const expiresAt = new Date(Date.now() + BAN_LIST_IMPORT_PREVIEW_MINUTES * 60_000);
    // Kept only when there is something to confirm: a refused or empty preview takes no room.
    const id = refused || fresh.length === 0 ? null : randomUUID();
    if (id) {
      const items = fresh.map(({ item, comment, expiresAt: at }): StoredImportItem => [
        item.value,
        comment,
        at === undefined ? '' : at === null ? null : at.toISOString(),
      ]);
      await this.db.transaction((tx) =>
        new ListImportRepository(tx).store(id, userId, list, items, expiresAt),
      );
    }
    return {
      id,
      expires_at: expiresAt.toISOString(),
      format: parsed.format,
      lines: parsed.lines,
      to_add: fresh.length,
      already_listed: parsed.items.length - fresh.length,
      repeated: parsed.repeated,
      invalid_count: parsed.invalidCount,
      invalid: parsed.invalid,
      capacity: {
        used: capacity.items.used,
        limit: capacity.items.limit,
        plan: LIST_PLAN_NAMES[capacity.plan],
      },
      refused: refused ? `${refused} Nothing will be sent.` : null,
    };
  }

  /**
   * Confirms a preview: refused at once (nothing sent) when it would pass the account's quota, else
   * started as a job; its result when it ended within the wait, else the job.
   */
  async apply(actor: ImportActor, listId: string, importId: string, expires: string) {
    const list = await this.owned.requireList(actor.userId, listId);
    // Checked before the preview is used up: a wrong date is the person's to correct.
    expiryOfChoice(expires);
    const count = await this.imports.claim(importId, actor.userId, list.ref);
    if (count === undefined) throw previewGone();
    try {
      requireRoom(await new ListCapacity(this.db).ofAccount(actor.userId, list.accountId), {
        items: count,
      });
      await refuseBeyondPlan(this.db, actor.userId, 'list_items', count);
    } catch (err) {
      await this.imports.remove(importId);
      throw err;
    }
    return this.jobs.startAndWait<BanListImportResult>({
      kind: 'ban-list-import',
      userId: actor.userId,
      accountId: list.accountRef,
      target: list.listName,
      data: { listId, importId, expires, by: actor.name },
    });
  }

  /** The job: sends the new items and records what Cloudflare took. */
  readonly run: GuardianJobHandler<'ban-list-import'> = async ({ job, signal, progress, flushProgress }) => {
    const { data } = job;
    const list = await this.owned.requireList(job.userId, data.listId);
    const cf = await this.owned.clientOf(job.userId, list);
    const defaultExpiry = expiryOfChoice(data.expires, new Date(job.createdAt));
    return this.turns.writing(list.ref, async () => {
      const stored = await this.imports.items(data.importId, job.userId, list.ref);
      if (!stored) throw previewGone();
      const current = await this.lists.findOwned(job.userId, list.ref);
      if (!current) throw banListNotFound();
      const result = await this.send(cf, current, stored, defaultExpiry, {
        by: { userId: job.userId, name: data.by },
        signal,
        progress,
        flushProgress,
      });
      await this.imports.remove(data.importId);
      return result;
    });
  };

  /**
   * Adds `items` ([value, comment, expiry ISO or null]) to a list in the fewest Cloudflare writes, as
   * an import sends its items (the list's turn, the account's write turn and budget, the mirror
   * recorded once Cloudflare took them, a lost answer found out): what the servers' bans of an
   * account, coalesced by their job, go through. Items the list already holds are not sent.
   */
  async addItems(
    by: ImportActor,
    list: BanListRecord,
    items: StoredImportItem[],
    signal: AbortSignal,
  ): Promise<BanListImportResult> {
    const cf = await this.owned.clientOf(by.userId, list);
    return this.turns.writing(list.ref, async () => {
      const current = await this.lists.findOwned(by.userId, list.ref);
      if (!current) throw banListNotFound();
      // No preview position: the list's items are always looked up, so what it holds is not sent again.
      return this.send(cf, current, { items, listNextItemId: null }, null, {
        by,
        signal,
        progress: () => {},
        flushProgress: async () => {},
      });
    });
  }

  private async send(
    cf: Cloudflare,
    list: BanListRecord,
    stored: StoredImport,
    defaultExpiry: Date | null,
    options: {
      by: ImportActor;
      signal: AbortSignal;
      progress: (done: number, total?: number | null) => void;
      flushProgress: () => Promise<void>;
    },
  ): Promise<BanListImportResult> {
    const entries = stored.items.flatMap(([value, comment, at]) => {
      const item = parseItemValue(list.kind, value);
      return typeof item === 'string' ? [] : [{ item, comment, at }];
    });
    // Items an import recorded ahead of a Cloudflare operation it did not see end (its server process
    // stopped) go first; Cloudflare may hold them, so the list is read back in the background too.
    if ((await withdrawLeftovers(this.db, list.ref)) > 0) {
      this.owned.changed();
      await this.reconciler.syncLater(options.by.userId, list);
    }
    // The list may have gained some of the items since the preview: only what it still lacks is sent.
    // Every write that adds to the mirror moves the list's next id: where it has not moved, nothing was.
    const listed =
      stored.listNextItemId === list.nextItemId
        ? new Set<string>()
        : await this.imports.existingKeys(
            list.ref,
            list.kind,
            entries.map((entry) => entry.item.key),
          );
    const fresh = entries.filter((entry) => !listed.has(entry.item.key));
    requireRoom(await new ListCapacity(this.db).ofAccount(options.by.userId, list.accountId), {
      items: fresh.length,
    });
    options.progress(0, fresh.length);
    // Shown while Cloudflare takes the write, which reports nothing until it ends.
    await options.flushProgress();
    const fallback = defaultExpiry ? defaultExpiry.toISOString() : null;
    const expiryOf = (entry: (typeof fresh)[number]) => (entry.at === '' ? fallback : entry.at);
    /** What reached Cloudflare and is still to record in the mirror (after a lost answer). */
    const reached: ImportedItem[] = [];
    /** Items as sent, under provisional ids (Cloudflare's answer names none; item-ids.ts learns them when first needed). */
    const asSent = (batch: typeof fresh): ImportedItem[] => {
      const createdOn = new Date().toISOString();
      return batch.map((entry) => {
        const value = entry.item.value;
        return {
          itemId: newPendingItemId(),
          ip: value,
          comment: entry.comment,
          createdOn,
          ipSort: list.kind === 'ip' && isInetText(value) ? value : null,
          expiresAt: expiryOf(entry),
        };
      });
    };
    /** Items Cloudflare completed a write of, found out after a lost answer: recorded below. */
    const completed = (batch: typeof fresh) => reached.push(...asSent(batch));
    const recording = new MirrorRecording(this.db, list, options.by, {
      progress: options.progress,
      changed: () => this.owned.changed(),
    });
    let writeCalls = 0;
    let failure: unknown;
    let lost: WriteOutcomeUnknown | undefined;
    let uncertain: typeof fresh = [];
    /** The lost write's items are in the mirror, recorded while its operation ran (not confirmed). */
    let recordedAhead = false;
    try {
      const perWrite = Math.min(fresh.length, CLOUDFLARE_ITEMS_PER_WRITE);
      for (let start = 0; start < fresh.length; start += perWrite) {
        options.signal.throwIfAborted();
        const batch = fresh.slice(start, start + perWrite);
        const body = batch.map(({ item, comment }): CloudflareItemInput =>
          comment ? { ...item.input, comment } : item.input,
        );
        /** This write's items, recorded in the mirror while Cloudflare's bulk operation runs. */
        let ahead: Promise<void> | undefined;
        let written = false;
        try {
          await this.writes.atCloudflare(list, batch.length, async () => {
            writeCalls++;
            uncertain = batch;
            try {
              await writeListItems(cf, list.accountId, async () => {
                const answer = await cf.rules.lists.items.create(list.listId, {
                  account_id: list.accountId,
                  body,
                });
                // Cloudflare took the write: its items go into the mirror while its operation is
                // followed (most of an import's time is the mirror's insert). Should the operation
                // fail, they are removed again below, in this job, under the list's turn.
                ahead = recording.record(asSent(batch));
                ahead.catch(() => undefined);
                return answer;
              });
            } catch (err) {
              // Refused (a 4xx, a failed operation): nothing of it reached Cloudflare.
              if (!(err instanceof WriteOutcomeUnknown)) uncertain = [];
              throw err;
            }
          });
          written = true;
          await ahead;
          await recording.confirm();
        } catch (err) {
          await ahead?.catch(() => undefined);
          if (written) {
            // Cloudflare holds the items, the mirror not all of them: it is read back in the background.
            await recording.confirm();
            await this.reconciler.syncLater(options.by.userId, list).catch(() => undefined);
          } else if (
            err instanceof WriteOutcomeUnknown &&
            ahead !== undefined &&
            (await ahead.then(() => true).catch(() => false))
          ) {
            // Cloudflare took the write and its end was lost: what was recorded ahead of it is kept
            // until that end is found out below (completed: kept; else withdrawn).
            recordedAhead = true;
          } else {
            // The write did not complete: what was recorded ahead of it goes again, so the mirror
            // holds nothing Cloudflare may not have.
            await recording.withdraw();
          }
          throw err;
        }
        uncertain = [];
      }
    } catch (err) {
      failure = err;
      if (err instanceof WriteOutcomeUnknown) lost = err;
    }
    /** What the person is told happened to a write whose outcome was lost. */
    let outcome: string | undefined;
    // After a lost outcome, what of that write reached Cloudflare is found out: its operation is
    // polled again until it ends; if that cannot be told, the list is read back (until every item of
    // the write is found) and what is there is recorded with Cloudflare's ids.
    if (lost && uncertain.length > 0) {
      const batch = uncertain;
      const why = `Cloudflare's answer to the import was lost (${lostBecause(lost)})`;
      const end = await lostWriteEnd(cf, list, lost, OUTCOME_WAIT_JOB_MS);
      if (end.status !== 'completed') await recording.withdraw();
      if (end.status === 'completed') {
        if (recordedAhead) await recording.confirm();
        else completed(batch);
        failure = undefined;
        outcome = `${why}; Guardian asked again: Cloudflare completed it, ${batch.length.toLocaleString('en-US')} of ${batch.length.toLocaleString('en-US')} items are at Cloudflare and in the console.`;
      } else if (end.status === 'failed') {
        failure = new AppError('BAD_REQUEST', end.reason, { cause: failure });
      } else {
        const wanted = new Map(batch.map((entry) => [entry.item.key, expiryOf(entry)] as const));
        const sent = recording.confirmed + reached.length;
        const total = sent + list.itemsCount + fresh.length;
        try {
          // Cloudflare applies a write at once when its operation ends: while none of it is found and
          // the operation may still be running, the list is read again, a few times at most.
          let found: ImportedItem[] = [];
          for (
            let read = 0, pause = READ_AGAIN_MS;
            found.length === 0 && read < READS_MAX;
            read++, pause *= 3
          ) {
            if (read > 0) await sleep(pause);
            found = await this.readBack(cf, list, new Map(wanted), (done) =>
              options.progress(sent + done, total),
            );
          }
          reached.push(...found);
          const counted = `${found.length.toLocaleString('en-US')} of ${batch.length.toLocaleString('en-US')} items are at Cloudflare and in the console`;
          let told = `${why}; Guardian read the list back: ${counted}`;
          told += found.length === 0 ? ', nothing was imported.' : '.';
          // Some not there may still land (an operation not seen to end): the list is read back later too.
          if (found.length < batch.length) {
            await this.reconciler.syncLater(options.by.userId, list);
            told +=
              ' Guardian updates the list from Cloudflare again in the background (Jobs: Update from Cloudflare).';
          }
          failure = found.length === 0 ? new AppError(lost.code, told, { cause: lost }) : undefined;
          if (found.length > 0) outcome = told;
        } catch (readFailure) {
          // The writes completed before are still recorded below, and the list read back later.
          failure = await this.reconciler.unsettled(options.by.userId, list, lost, 'the import', readFailure);
        }
      }
    }
    // What a lost answer's follow-up found at Cloudflare (the mirror's other items keep their ids).
    try {
      await recording.record(reached);
      await recording.confirm();
    } catch (err) {
      // Cloudflare holds what was not recorded here: the list is read back in the background.
      await this.reconciler.syncLater(options.by.userId, list).catch(() => undefined);
      throw err;
    }
    if (failure !== undefined) {
      // Nothing unconfirmed stays behind a failed import.
      await recording.withdraw();
      throw failure;
    }
    const after = await this.lists.findOwned(options.by.userId, list.ref);
    if (!after) throw banListNotFound();
    return {
      added: recording.confirmed,
      already_listed: entries.length - fresh.length,
      write_calls: writeCalls,
      list: toBanListDto(after) satisfies BanList,
      ...(outcome && { outcome }),
    };
  }

  /**
   * The list's items at Cloudflare whose keys are `wanted` (with their expiry), read with its cursor
   * (500 a call) until all are found or the list ends; the cursor is not trusted past the pages the
   * list's count needs, plus a few.
   */
  private async readBack(
    cf: Cloudflare,
    list: BanListRecord,
    wanted: Map<string, string | null>,
    onRead: (read: number) => void,
  ): Promise<ImportedItem[]> {
    const found: ImportedItem[] = [];
    const pages = listItemPages(cf, list, {
      maxPages: Math.ceil((list.itemsCount + wanted.size) / CLOUDFLARE_ITEMS_PER_PAGE) + EXTRA_PAGES,
      what: `the items of the list "${list.listName}"`,
      tooManyPages: 'Cloudflare kept announcing more pages than the list holds.',
      sameCursor:
        'Cloudflare sent the same page cursor twice. Please update from Cloudflare to see what was imported.',
    });
    let read = 0;
    for await (const page of pages) {
      for (const item of page) {
        const key = keyOfCloudflareItem(item);
        if (!wanted.has(key)) continue;
        found.push({ ...toMirrorItem(item), expiresAt: wanted.get(key) ?? null });
        wanted.delete(key);
      }
      read += page.length;
      onRead(read);
      if (wanted.size === 0) break;
    }
    return found;
  }
}
