import type { BanList } from '@guardian/contract';

/** 'Blocklist' or 'Allowlist'; undefined when the list's purpose is not known. */
export function purposeLabel(list: Pick<BanList, 'purpose'>): string | undefined {
  if (list.purpose === null) return undefined;
  return list.purpose === 'allow' ? 'Allowlist' : 'Blocklist';
}

/** Where a list's purpose came from, in words: 'set by you', 'from the name'. */
export function purposeSourceWords(list: Pick<BanList, 'purpose_source'>): string | undefined {
  if (list.purpose_source === null) return undefined;
  return list.purpose_source === 'person' ? 'set by you' : 'from the name';
}
