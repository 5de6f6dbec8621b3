import type { BanList } from '@guardian/contract';

/** 'Blocklist' or 'Allowlist'; undefined when the list's purpose is not known. */
export function purposeLabel(list: Pick<BanList, 'purpose'>): string | undefined {
  if (list.purpose === null) return undefined;
  return list.purpose === 'allow' ? 'Allowlist' : 'Blocklist';
}

const SOURCE_WORDS: Record<NonNullable<BanList['purpose_source']>, string> = {
  person: 'set by you',
  rules: 'from the firewall rules that use it',
  name: 'from the name',
};

/** Where a list's purpose came from, in words: 'set by you', 'from the firewall rules ...', 'from the name'. */
export function purposeSourceWords(list: Pick<BanList, 'purpose_source'>): string | undefined {
  return list.purpose_source === null ? undefined : SOURCE_WORDS[list.purpose_source];
}
