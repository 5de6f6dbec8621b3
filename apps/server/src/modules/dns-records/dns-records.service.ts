import {
  isEditableDnsType,
  parseSrvContent,
  type DnsRecord,
  type DnsRecordType,
  type ValidDnsRecordInput,
} from '@guardian/contract';
import Cloudflare from 'cloudflare';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import { isCloudflareNotFound } from '../../cloudflare';
import { dnsRecordAnswer, usableAnswer } from '../../cloudflare/answers';
import {
  changeChecked,
  checkedAfterLoss,
  createChecked,
  outcomeUnknown,
  uncheckedAfterLoss,
  type Checked,
} from '../../cloudflare/create-once';
import { AppError } from '../../app-error';
import type { SnapshotDnsRecord } from '../snapshots';
import type { SnapshotsService } from '../snapshots';
import { fetchAllPages } from '../zones';
import type { OwnedZones } from '../zones';
import type { ZoneRecord } from '../zones';

type CloudflareRecord = z.infer<typeof dnsRecordAnswer>;
/** A record of one of the seven types the console edits. */
type EditableRecord = CloudflareRecord & { type: DnsRecordType };
type RecordBody = DistributiveOmit<Cloudflare.DNS.RecordCreateParams, 'zone_id'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * Records per zone: 3,500 on paid plans (200 on Free). One call reads them all; a zone listing
 * more is refused (502) rather than followed, whatever its answer claims.
 */
const MAX_RECORDS_PER_ZONE = 3_500;

const recordNotFound = () => new AppError('NOT_FOUND', 'DNS record not found.');

export function toDnsRecord(record: CloudflareRecord): DnsRecord {
  const srv = record.type === 'SRV' ? record.data : undefined;
  return {
    id: record.id,
    type: record.type,
    name: record.name,
    // An SRV record reads as "weight port target", its priority apart, like the form that edits it.
    content: srv ? `${srv.weight ?? 0} ${srv.port ?? 0} ${srv.target ?? ''}` : (record.content ?? ''),
    comment: record.comment ?? '',
    priority: record.type === 'MX' ? (record.priority ?? null) : srv ? (srv.priority ?? null) : null,
    ttl: record.ttl as DnsRecord['ttl'],
    proxied: record.proxied ?? false,
  };
}

/** The request body Cloudflare expects for a validated record; tags the form does not show are kept. */
function recordBody(input: ValidDnsRecordInput, tags: string[]): RecordBody {
  const common = {
    name: input.name,
    ttl: input.ttl,
    ...(input.comment ? { comment: input.comment } : {}),
    ...(tags.length > 0 ? { tags } : {}),
  };
  switch (input.type) {
    case 'A':
    case 'AAAA':
    case 'CNAME':
      return { ...common, type: input.type, content: input.content, proxied: input.proxied };
    case 'TXT':
    case 'NS':
      return { ...common, type: input.type, content: input.content };
    case 'MX':
      return { ...common, type: 'MX', content: input.content, priority: input.priority ?? undefined };
    case 'SRV': {
      // The schema has checked the content, so it parses.
      const { weight, port, target } = parseSrvContent(input.content)!;
      return {
        ...common,
        type: 'SRV',
        data: { priority: input.priority ?? undefined, weight, port, target },
      };
    }
  }
}

/** The body that re-creates a stored record of one of the console's types as it was. */
function bodyOf(record: EditableRecord): RecordBody {
  return recordBody({ ...toDnsRecord(record), type: record.type }, record.tags ?? []);
}

/** What a snapshot keeps of a record to create it again: the console's types as it edits them, others as read. */
function keptBodyOf(record: CloudflareRecord): Record<string, unknown> {
  if (isEditable(record)) return { ...bodyOf(record) };
  const { type, name, content, ttl, proxied, priority, data, comment, tags } = record;
  const fields = { type, name, content, ttl, proxied, priority, data, comment, tags };
  return Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined && value !== null),
  );
}

function isEditable(record: CloudflareRecord): record is EditableRecord {
  return isEditableDnsType(record.type);
}

/**
 * Whether Cloudflare holds the record as sent: same type, name, content (host names and addresses
 * in any case, as Cloudflare lowers them), priority, proxied and comment; the TTL too unless proxied
 * (Cloudflare's is then Auto).
 */
function holds(seen: DnsRecord, sent: DnsRecord): boolean {
  const content = (record: DnsRecord) =>
    record.type === 'TXT' ? record.content : record.content.toLowerCase().replace(/\.$/, '');
  return (
    seen.type === sent.type &&
    seen.name.toLowerCase() === sent.name.toLowerCase() &&
    content(seen) === content(sent) &&
    seen.priority === sent.priority &&
    seen.proxied === sent.proxied &&
    seen.comment === sent.comment &&
    (sent.proxied || seen.ttl === sent.ttl)
  );
}

/** The full name Cloudflare will store: `@` is the apex, relative names are inside the zone. */
function qualifiedName(name: string, zone: ZoneRecord): string {
  const lower = name.toLowerCase().replace(/\.$/, '');
  if (lower === '@') return zone.domain;
  return lower === zone.domain || lower.endsWith(`.${zone.domain}`) ? lower : `${lower}.${zone.domain}`;
}

/**
 * DNS records are read and written live at Cloudflare (not mirrored), through the account that holds
 * the zone; the zone is found through the user's own accounts first.
 */
export class DnsRecordsService {
  constructor(
    private readonly deps: AppDeps,
    private readonly ownedZones: OwnedZones,
    /** Deleting a record keeps it here first, so it can be restored. */
    private readonly snapshots: SnapshotsService,
  ) {}

  async list(userId: number, zoneId: string): Promise<DnsRecord[]> {
    const { zone, cf } = await this.ownedZones.require(userId, zoneId);
    // One page one larger than the limit: a zone over it is told apart from one at it.
    const perPage = MAX_RECORDS_PER_ZONE + 1;
    const records = await fetchAllPages(
      { what: "the zone's DNS records", item: dnsRecordAnswer, perPage, maxItems: MAX_RECORDS_PER_ZONE },
      (page) => cf.dns.records.list({ zone_id: zone.zoneId, per_page: perPage, page }),
    );
    return records.map(toDnsRecord);
  }

  async create(userId: number, zoneId: string, input: ValidDnsRecordInput): Promise<Checked<DnsRecord>> {
    const { zone, cf } = await this.ownedZones.require(userId, zoneId);
    const { value, outcome } = await this.createRecord(cf, zone, {
      zone_id: zone.zoneId,
      ...recordBody(input, []),
    });
    return { value: toDnsRecord(value), outcome };
  }

  /**
   * Creates a record, reading the zone again when the answer was lost: Cloudflare refuses an
   * identical record, so a blind second create would report an error for a record that exists.
   */
  private async createRecord(
    cf: Cloudflare,
    zone: ZoneRecord,
    body: Cloudflare.DNS.RecordCreateParams,
  ): Promise<Checked<CloudflareRecord>> {
    const expected = toDnsRecord(usableAnswer(dnsRecordAnswer, { id: '-', ...body }, 'the record sent'));
    const name = qualifiedName(body.name, zone);
    return createChecked(
      async () => usableAnswer(dnsRecordAnswer, await cf.dns.records.create(body), 'the new DNS record'),
      async () => {
        const found = await cf.dns.records.list({
          zone_id: zone.zoneId,
          type: body.type,
          name: { exact: name },
        });
        return found.result
          .map((record) => usableAnswer(dnsRecordAnswer, record, "the zone's DNS records"))
          .find((record) => {
            const seen = toDnsRecord(record);
            return seen.content === expected.content && seen.priority === expected.priority;
          });
      },
      'the record was created',
    );
  }

  /**
   * Saves a record in place (a PUT, which the transport repeats: the same content twice is one
   * change). When its outcome is still unknown, the record is read back once: holding what was sent,
   * it is answered with the outcome sentence; else a 502 says it was not updated.
   */
  async update(
    userId: number,
    zoneId: string,
    recordId: string,
    input: ValidDnsRecordInput,
  ): Promise<Checked<DnsRecord>> {
    const { zone, cf } = await this.ownedZones.require(userId, zoneId);
    const existing = await this.find(cf, zone, recordId);
    if (!isEditable(existing)) {
      throw new AppError('BAD_REQUEST', `${existing.type} records cannot be edited here.`);
    }
    if (existing.type !== input.type) return this.changeType(cf, zone, existing, input);
    const body = recordBody(input, existing.tags ?? []);
    const sent = toDnsRecord(
      usableAnswer(
        dnsRecordAnswer,
        { id: recordId, ...body, name: qualifiedName(body.name, zone) },
        'the record sent',
      ),
    );
    return changeChecked(
      async () => {
        const updated = await cf.dns.records.update(recordId, { zone_id: zone.zoneId, ...body });
        return toDnsRecord(usableAnswer(dnsRecordAnswer, updated, 'the saved DNS record'));
      },
      async () => {
        const seen = toDnsRecord(await this.find(cf, zone, recordId));
        return holds(seen, sent) ? { value: seen } : undefined;
      },
      'the record',
      'updated',
    );
  }

  /**
   * Deletes a record, keeping it first (a snapshot) so the person can restore it. When the delete's
   * answer was lost, the record is read back (one read): gone, the delete is answered done and says
   * so; still there, the answer says it was not deleted.
   */
  async remove(userId: number, zoneId: string, recordId: string): Promise<Checked<void>> {
    const { zone, cf } = await this.ownedZones.require(userId, zoneId);
    const record = await this.find(cf, zone, recordId);
    await this.snapshots.keepDnsRecord(
      userId,
      { accountRef: zone.accountRef, zoneId: zone.zoneId, recordId, body: keptBodyOf(record) },
      `${record.type} ${record.name}`,
    );
    // Lost (a retry's 404 after an attempt that may have landed included): one read tells.
    return changeChecked(
      () => this.deleteRecord(cf, zone, recordId),
      async () => ((await this.isGone(cf, zone, recordId)) ? { value: undefined } : undefined),
      'the record',
      'deleted',
    );
  }

  private async deleteRecord(cf: Cloudflare, zone: ZoneRecord, recordId: string): Promise<void> {
    try {
      await cf.dns.records.delete(recordId, { zone_id: zone.zoneId });
    } catch (err) {
      throw isCloudflareNotFound(err) && !outcomeUnknown(err) ? recordNotFound() : err;
    }
  }

  /** Whether the record is gone from the zone (one read; its failure is thrown). */
  private async isGone(cf: Cloudflare, zone: ZoneRecord, recordId: string): Promise<boolean> {
    return cf.dns.records.get(recordId, { zone_id: zone.zoneId }).then(
      () => false,
      (readFailure: unknown) => (isCloudflareNotFound(readFailure) ? true : Promise.reject(readFailure)),
    );
  }

  /** Creates a kept record again (see `remove`). */
  async restore(userId: number, kept: SnapshotDnsRecord): Promise<void> {
    const { zone, cf } = await this.ownedZones.require(userId, kept.zoneId);
    await this.createRecord(cf, zone, {
      zone_id: zone.zoneId,
      ...kept.body,
    } as Cloudflare.DNS.RecordCreateParams);
  }

  private async find(cf: Cloudflare, zone: ZoneRecord, recordId: string): Promise<CloudflareRecord> {
    try {
      return usableAnswer(
        dnsRecordAnswer,
        await cf.dns.records.get(recordId, { zone_id: zone.zoneId }),
        'the DNS record',
      );
    } catch (err) {
      throw isCloudflareNotFound(err) ? recordNotFound() : err;
    }
  }

  /**
   * Cloudflare no longer changes a record's type in place, so the record is replaced, without ever
   * losing it: the new record is created first and the old one deleted after. Only when the two
   * would clash (a CNAME shares its name with no other record) does the old one go first, and it is
   * re-created if the new one is refused. A step whose outcome is unknown is read back before the
   * next (createRecord, `isGone`): a delete that landed is never taken for a failed one, after which
   * undoing the other step would leave neither record.
   */
  private async changeType(
    cf: Cloudflare,
    zone: ZoneRecord,
    old: EditableRecord,
    input: ValidDnsRecordInput,
  ): Promise<Checked<DnsRecord>> {
    const zone_id = zone.zoneId;
    const replacement = { zone_id, ...recordBody(input, old.tags ?? []) };
    const was = toDnsRecord(old);
    const clash =
      qualifiedName(input.name, zone) === old.name.toLowerCase() &&
      (old.type === 'CNAME' || input.type === 'CNAME');
    /** The answer's outcome when a step's answer was lost and Guardian found it done. */
    const updated = (lost: boolean) => (lost ? checkedAfterLoss('the record was updated') : undefined);
    const notUpdated = (cause: unknown) =>
      new AppError('UPSTREAM', `${checkedAfterLoss('the record was not updated')} Please try again.`, {
        cause,
      });

    if (!clash) {
      const created = await this.createRecord(cf, zone, replacement).catch((err: unknown) => {
        throw outcomeUnknown(err)
          ? new AppError('UPSTREAM', uncheckedAfterLoss(`the new ${input.type} record was created`), {
              cause: err,
            })
          : err;
      });
      const undo = async (err: unknown) => {
        await cf.dns.records.delete(created.value.id, { zone_id }).catch(async (cleanupError: unknown) => {
          if (
            outcomeUnknown(cleanupError) &&
            (await this.isGone(cf, zone, created.value.id).catch(() => false))
          )
            return;
          throw this.stranded(
            `Both the old ${old.type} record and the new ${input.type} record now exist; delete one.`,
            cleanupError,
          );
        });
        return err;
      };
      try {
        await cf.dns.records.delete(old.id, { zone_id });
      } catch (err) {
        if (!outcomeUnknown(err)) throw await undo(err);
        const gone = await this.isGone(cf, zone, old.id).catch(() => {
          throw new AppError(
            'UPSTREAM',
            `${uncheckedAfterLoss(`the old ${old.type} record was deleted`)} If both records are there, delete the old one.`,
            { cause: err },
          );
        });
        if (!gone) throw await undo(notUpdated(err));
        return { value: toDnsRecord(created.value), outcome: updated(true) };
      }
      return { value: toDnsRecord(created.value), outcome: updated(created.outcome !== undefined) };
    }

    const restore = { zone_id, ...bodyOf(old) };
    const deleted = await changeChecked(
      () => cf.dns.records.delete(old.id, { zone_id }),
      async () => ((await this.isGone(cf, zone, old.id)) ? { value: undefined } : undefined),
      'the record',
      'updated',
    );
    try {
      const created = await this.createRecord(cf, zone, replacement);
      return {
        value: toDnsRecord(created.value),
        outcome: updated(deleted.outcome !== undefined || created.outcome !== undefined),
      };
    } catch (err) {
      // Should the new record exist after all (its outcome unknown), Cloudflare refuses the old one.
      await this.createRecord(cf, zone, restore).catch((restoreError: unknown) => {
        throw this.stranded(
          `The ${was.type} record ${was.name} was deleted and could not be restored: add it again (content ${was.content}).`,
          restoreError,
        );
      });
      throw err;
    }
  }

  private stranded(message: string, cause: unknown): AppError {
    return new AppError('UPSTREAM', `Cloudflare failed during the type change. ${message}`, { cause });
  }
}
