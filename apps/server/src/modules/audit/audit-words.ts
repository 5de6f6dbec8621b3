import type { AuditOutcome } from '@guardian/contract';

/**
 * What the trail knew of a change's subject when it happened, read before the handler ran (after a
 * delete the rows are gone): names instead of ids, the values of the items it removed.
 */
export interface AuditSubject {
  accountName?: string;
  listName?: string;
  zoneName?: string;
  /** The item values the change is about: the first AUDIT_VALUES_NAMED of them. */
  values?: string[];
  /** How many more values than `values` names. */
  moreValues?: number;
  /** The names of the lists a change across lists (Ban everywhere, Remove matches) touched. */
  lists?: string[];
  /** The e-mail of the person an administrator's change is about. */
  person?: string;
  keyName?: string;
  snapshot?: string;
  /** A deleted DNS record's type and name ("A www.example.com"), as its snapshot keeps them. */
  record?: string;
  /** How many new items a previewed import sends. */
  importCount?: number;
}

/** Values named in an event's words; the rest are counted ("and 12 more"). */
export const AUDIT_VALUES_NAMED = 5;
/** The words' bound (the column allows 1,000). */
const MAX_SUMMARY = 600;
const MAX_NAME = 120;

/** What a change did: its verb (past, and as infinitive for "tried to ..."), then its object. */
interface Phrase {
  did: string;
  tried: string;
  what?: string;
}

export interface EventFacts {
  actor: string;
  action: string;
  outcome: AuditOutcome;
  /** The path's ids and the request's fields, bounded (the trail's `target`). */
  target: Record<string, unknown>;
  subject: AuditSubject;
}

const text = (value: unknown): string | undefined => {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const trimmed = value.trim();
  return trimmed.length > MAX_NAME ? `${trimmed.slice(0, MAX_NAME)}…` : trimmed;
};

/** "a, b and c", or "a, b, c, d, e and 12 more". */
function listed(names: string[], more = 0): string {
  if (more > 0) return `${names.join(', ')} and ${more} more`;
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The words of one change: `did` when it succeeded, "tried to `tried`" when it did not. */
function phraseOf({ action, target, subject }: EventFacts): Phrase {
  const account = subject.accountName ?? text(target.account_name);
  const inAccount = account ? ` (account ${account})` : '';
  const list = `${subject.listName ?? text(target.list_id) ?? text(target.id) ?? 'a ban list'}${inAccount}`;
  const zone = subject.zoneName ?? text(target.zone_id) ?? 'a zone';
  const values = subject.values?.length ? listed(subject.values, subject.moreValues) : undefined;
  const item = values ?? `item ${text(target.item_id) ?? ''}`.trim();
  const lists = subject.lists?.length ? listed(subject.lists) : 'the chosen lists';
  const person = subject.person ?? `user ${text(target.id) ?? ''}`.trim();
  const record = [text(target.type), text(target.name)].filter(Boolean).join(' ');
  // A firewall rule's add sends a list holding the rule (kept as the trail's `body`).
  const rule = text(
    target.description ?? (target.body as { description?: unknown }[] | undefined)?.[0]?.description,
  );
  // Sent with an add or an edit; a delete's is read by its handler (the trail's `url`).
  const pageRuleUrl = text(
    (target.targets as { constraint?: { value?: unknown } }[] | undefined)?.[0]?.constraint?.value ??
      target.url,
  );
  const key = subject.keyName ? `API key "${subject.keyName}"` : 'an API key';
  const phrase = (did: string, tried: string, what?: string): Phrase => ({ did, tried, what });
  const same = (verb: string, what?: string) => phrase(verb, verb, what);

  switch (action) {
    case 'auth.login':
      return phrase('signed in', 'sign in');
    case 'auth.loginTwoFactor':
      return phrase('signed in with a two-factor code', 'sign in with a two-factor code');
    case 'auth.logout':
      return phrase('signed out', 'sign out');
    case 'accounts.add':
      return phrase('added', 'add', `Cloudflare account ${account ?? ''}`.trim());
    case 'accounts.update':
      return phrase('updated', 'update', `Cloudflare account ${account ?? text(target.id) ?? ''}`.trim());
    case 'accounts.remove':
      return phrase('removed', 'remove', `Cloudflare account ${account ?? text(target.id) ?? ''}`.trim());
    case 'banLists.add':
      return phrase('created', 'create', `ban list ${text(target.list_name) ?? ''}${inAccount}`);
    case 'banLists.update':
      return phrase('read every account’s lists again', 'read every account’s lists again');
    case 'banLists.clean':
      return phrase('forgot the lists Cloudflare no longer has', 'forget the lists Cloudflare no longer has');
    case 'banLists.setPurpose':
      return phrase(
        'marked',
        'mark',
        `ban list ${list} ${target.purpose === 'allow' ? 'as an allowlist' : target.purpose === 'block' ? 'as a blocklist' : 'by its name again'}`,
      );
    case 'banLists.remove':
      return phrase('deleted', 'delete', `ban list ${list}`);
    case 'banListItems.add':
      return phrase('added', 'add', `${text(target.ip) ?? 'an item'} to ${list}`);
    case 'banListItems.remove':
      return phrase('removed', 'remove', `${item} from ${list}`);
    case 'banListItems.expire': {
      // Guardian's own removal of expired items (item-expiry.ts): its target names them.
      const expired = Array.isArray(target.values)
        ? target.values.filter((value) => typeof value === 'string')
        : [];
      const count = typeof target.items === 'number' ? target.items : expired.length;
      const named = expired.slice(0, AUDIT_VALUES_NAMED);
      return phrase(
        'removed',
        'remove',
        `${named.length > 0 ? listed(named, count - named.length) : plural(count, 'item', 'items')} from ${text(target.list_name) ?? list} as they expired`,
      );
    }
    case 'banListItems.changeExpiry':
      return phrase('changed the expiry of', 'change the expiry of', `${item} in ${list}`);
    case 'banListItems.importApply':
      return phrase(
        'imported',
        'import',
        `${subject.importCount === undefined ? 'addresses' : plural(subject.importCount, 'address', 'addresses')} into ${list}`,
      );
    case 'banListItems.sync':
      return phrase('synced', 'sync', `ban list ${list} from Cloudflare`);
    case 'ipSearch.ban':
      return phrase('banned', 'ban', `${text(target.value) ?? 'an address'} in ${lists}`);
    case 'ipSearch.remove':
      return phrase('removed', 'remove', `${values ?? 'the chosen matches'} from ${lists}`);
    case 'listCapacity.setPlan':
      return same('set the Lists plan of', `account ${account ?? text(target.account_id) ?? ''}`.trim());
    case 'dnsRecords.add':
      return phrase('created', 'create', `DNS record ${record} in ${zone}`);
    case 'dnsRecords.update':
      return phrase('updated', 'update', `DNS record ${record || text(target.record_id)} in ${zone}`);
    case 'dnsRecords.remove':
      return phrase(
        'deleted',
        'delete',
        `DNS record ${subject.record ?? text(target.record_id) ?? ''} in ${zone}`,
      );
    case 'firewallRules.add':
      return phrase('added', 'add', `firewall rule${rule ? ` "${rule}"` : ''} to ${zone}`);
    case 'firewallRules.reorder':
      return phrase('reordered', 'reorder', `the firewall rules of ${zone}`);
    case 'firewallRules.update':
      return phrase(
        'updated',
        'update',
        `firewall rule${rule ? ` "${rule}"` : ` ${text(target.rule_id)}`} in ${zone}`,
      );
    case 'firewallRules.remove':
      return phrase(
        'deleted',
        'delete',
        `firewall rule${rule ? ` "${rule}"` : ` ${text(target.rule_id) ?? ''}`} in ${zone}`,
      );
    case 'pageRules.add':
      return phrase('added', 'add', `page rule${pageRuleUrl ? ` for ${pageRuleUrl}` : ''} to ${zone}`);
    case 'pageRules.update':
      return phrase('updated', 'update', `page rule${pageRuleUrl ? ` for ${pageRuleUrl}` : ''} in ${zone}`);
    case 'pageRules.remove':
      return phrase(
        'deleted',
        'delete',
        `page rule ${pageRuleUrl ? `for ${pageRuleUrl}` : (text(target.pagerule_id) ?? '')} in ${zone}`,
      );
    case 'zones.add':
      return phrase('added', 'add', `zone ${text(target.domain) ?? ''}${inAccount}`);
    case 'zones.sync':
      return phrase('read the zones from Cloudflare again', 'read the zones from Cloudflare again');
    case 'zones.remove':
      return phrase('removed', 'remove', `zone ${zone}`);
    case 'zoneSettings.update':
      return phrase(
        'changed',
        'change',
        `${listed(Object.keys(target).filter((name) => name !== 'zone_id'))} of ${zone}`,
      );
    case 'snapshots.restore':
      return phrase('restored', 'restore', subject.snapshot ?? 'a snapshot');
    case 'apiKeys.create':
      return phrase('created', 'create', `API key "${text(target.name) ?? ''}"`);
    case 'apiKeys.revoke':
      return phrase('revoked', 'revoke', key);
    case 'apiKeys.userRevoke':
      return phrase('revoked', 'revoke', `${key} of ${person}`);
    case 'servers.groupCreate':
      return phrase('created', 'create', `server group "${text(target.name) ?? ''}"`);
    case 'servers.groupUpdate':
      return phrase('changed', 'change', `the policy of server group "${text(target.name) ?? ''}"`);
    case 'servers.groupRemove':
      return phrase('deleted', 'delete', `server group ${text(target.group_id) ?? ''}`.trim());
    case 'servers.create':
      return phrase('registered', 'register', `server "${text(target.name) ?? ''}"`);
    case 'servers.revoke':
      return phrase('revoked', 'revoke', `the key of server ${text(target.server_id) ?? ''}`.trim());
    case 'servers.userRevoke':
      return phrase('revoked', 'revoke', `the key of server ${text(target.server_id) ?? ''} of ${person}`);
    case 'serverApi.ban':
      return phrase('banned', 'ban', text(target.address) ?? 'an address');
    case 'serverApi.unban':
      return phrase('unbanned', 'unban', text(target.address) ?? 'an address');
    case 'servers.signingSecret':
      return phrase(
        'made a new signing secret for',
        'make a new signing secret for',
        `server ${text(target.server_id) ?? ''}`.trim(),
      );
    case 'servers.reviewApprove':
    case 'servers.reviewReject': {
      const count = Array.isArray(target.ids) ? target.ids.length : 0;
      const bans =
        count === 1 ? 'a server ban waiting for review' : `${count} server bans waiting for review`;
      return action === 'servers.reviewApprove'
        ? phrase('approved', 'approve', bans)
        : phrase('rejected', 'reject', bans);
    }
    case 'serverApi.webhook':
      return target.type === 'unban'
        ? phrase('unbanned', 'unban', `${text(target.address) ?? 'an address'} (signed webhook)`)
        : phrase('banned', 'ban', `${text(target.address) ?? 'an address'} (signed webhook)`);
    case 'serverApi.heartbeat':
      return phrase('reported in', 'report in');
    case 'crowdsec.connect':
      return phrase(
        'connected',
        'connect',
        `server ${text(target.server_id) ?? ''} to its CrowdSec Local API`,
      );
    case 'crowdsec.pull':
      return phrase('pulled', 'pull', `the CrowdSec decisions of server ${text(target.server_id) ?? ''}`);
    case 'crowdsec.disconnect':
      return phrase('disconnected', 'disconnect', `server ${text(target.server_id) ?? ''} from CrowdSec`);
    case 'crowdsec.mirror':
      return phrase('mirrored', 'mirror', "CrowdSec's decisions");
    case 'twoFactor.setup':
      return phrase('started setting up two-factor sign-in', 'start setting up two-factor sign-in');
    case 'twoFactor.enable':
      return phrase('turned on two-factor sign-in', 'turn on two-factor sign-in');
    case 'twoFactor.disable':
      return phrase('turned off two-factor sign-in', 'turn off two-factor sign-in');
    case 'twoFactor.regenerateRecoveryCodes':
      return phrase('made new recovery codes', 'make new recovery codes');
    case 'twoFactor.require':
      return phrase('required two-factor sign-in of everyone', 'require two-factor sign-in of everyone');
    case 'twoFactor.unrequire':
      return phrase('stopped requiring two-factor sign-in', 'stop requiring two-factor sign-in');
    case 'twoFactor.reset':
      return phrase('reset the two-factor sign-in of', 'reset the two-factor sign-in of', person);
    case 'users.create':
      return phrase('created', 'create', `user ${text(target.email) ?? ''}`.trim());
    case 'users.setLevel':
      return same('set the level of', `${person} to ${text(target.level) ?? '?'}`);
    case 'users.disable':
      return phrase('disabled', 'disable', person);
    case 'users.enable':
      return phrase('enabled', 'enable', person);
    case 'users.resetPassword':
      return same('reset the password of', person);
    case 'users.setPlan':
      return same('gave', `${person} the plan "${text(target.plan) ?? text(target.plan_id) ?? '?'}"`);
    case 'plans.create':
      return phrase('created', 'create', `plan "${text(target.name) ?? ''}"`);
    case 'plans.update':
      return phrase('changed', 'change', `plan "${text(target.name) ?? ''}"`);
    case 'plans.makeDefault':
      return same('made the default plan', `"${text(target.name) ?? text(target.id) ?? ''}"`);
    case 'plans.remove':
      return phrase('deleted', 'delete', `plan "${text(target.name) ?? text(target.id) ?? ''}"`);
    case 'users.remove':
      return phrase('deleted', 'delete', `user ${subject.person ?? text(target.id) ?? ''}`.trim());
    case 'passwordLinks.check':
      return phrase('opened a set-password link', 'open a set-password link');
    case 'passwordLinks.use':
      return phrase('set their password with a link', 'set their password with a link');
    case 'ownAccount.changePassword':
      return phrase('changed their password', 'change their password');
    case 'ownAccount.endSession':
      return phrase('ended one of their sessions', 'end one of their sessions');
    case 'ownAccount.endOtherSessions':
      return phrase(
        'signed out all their other sessions',
        'sign out all their other sessions',
        typeof target.sessions_ended === 'number'
          ? `(${plural(target.sessions_ended, 'session', 'sessions')})`
          : undefined,
      );
    case 'jobs.cancel':
      return phrase('cancelled', 'cancel', `job ${text(target.id) ?? ''}`.trim());
    case 'alerts.acknowledge':
      return phrase('acknowledged', 'acknowledge', `alert ${text(target.id) ?? ''}`.trim());
    case 'alerts.resolve':
      return phrase('resolved', 'resolve', `alert ${text(target.id) ?? ''}`.trim());
    case 'tickets.open':
      return phrase('opened', 'open', `ticket "${text(target.subject) ?? ''}"`);
    case 'tickets.reply':
      return phrase('replied to', 'reply to', `ticket ${text(target.id) ?? ''}`.trim());
    case 'tickets.close':
    case 'helpdesk.close':
      return phrase('closed', 'close', `ticket ${text(target.id) ?? ''}`.trim());
    case 'helpdesk.reply':
      return phrase('answered', 'answer', `ticket ${text(target.id) ?? ''} as support`.trim());
    case 'helpdesk.assign':
      return phrase(
        'assigned',
        'assign',
        `ticket ${text(target.id) ?? ''} to ${target.assignee_id === null ? 'nobody' : `administrator ${text(target.assignee_id) ?? ''}`}`,
      );
    case 'jobs.seen':
      return phrase('marked jobs as seen', 'mark jobs as seen');
    case 'systemSettings.update':
      return phrase(
        'changed the system settings',
        'change the system settings',
        Object.keys(target).length > 0 ? `(${Object.keys(target).slice(0, 8).join(', ')})` : undefined,
      );
    case 'notificationChannels.create':
      return phrase('added', 'add', `notification channel "${text(target.name) ?? ''}"`);
    case 'notificationChannels.update':
      return phrase(
        'changed',
        'change',
        `notification channel "${text(target.name) ?? text(target.id) ?? ''}"`,
      );
    case 'notificationChannels.remove':
      return phrase(
        'deleted',
        'delete',
        `notification channel "${text(target.name) ?? text(target.id) ?? ''}"`,
      );
    case 'notificationChannels.test':
      return phrase(
        'sent a test to',
        'send a test to',
        `notification channel ${text(target.id) ?? ''}`.trim(),
      );
    case 'notifications.update':
      return phrase(
        'changed their notification settings',
        'change their notification settings',
        Array.isArray(target.preferences)
          ? `(${target.preferences
              .slice(0, 8)
              .map((entry) => text((entry as { kind?: unknown }).kind))
              .filter(Boolean)
              .join(', ')})`
          : undefined,
      );
    case 'systemSettings.testEmail':
      return phrase('sent a test e-mail', 'send a test e-mail', text(target.to));
    default:
      return same('called', action);
  }
}

/**
 * The event in words, as the trail stores and searches it: "ada@example.com removed 203.0.113.7 from
 * block_list (account Acme)"; a change that did not happen reads "… tried to remove … (refused)".
 */
export function describeEvent(facts: EventFacts): string {
  const { did, tried, what } = phraseOf(facts);
  const object = what ? ` ${what}` : '';
  const words =
    facts.outcome === 'success'
      ? `${facts.actor} ${did}${object}`
      : `${facts.actor} tried to ${tried}${object} (${facts.outcome})`;
  return words.length > MAX_SUMMARY ? `${words.slice(0, MAX_SUMMARY - 1)}…` : words;
}
