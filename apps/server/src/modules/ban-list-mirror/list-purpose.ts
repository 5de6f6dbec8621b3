import type { BanList, BanListPurpose } from '@guardian/contract';

/** Words in a list's name that say what it is for (matched anywhere in the name, any case). */
const NAME_HINTS: Record<BanListPurpose, readonly string[]> = {
  allow: ['allow', 'white', 'trusted', 'office', 'pass'],
  block: ['block', 'ban', 'deny', 'bad', 'threat'],
};

/** The purpose a list's name suggests: only when its words point one way (`office_blocklist` does not). */
export function purposeFromName(listName: string): BanListPurpose | null {
  const name = listName.toLowerCase();
  const says = (purpose: BanListPurpose) => NAME_HINTS[purpose].some((word) => name.includes(word));
  const allow = says('allow');
  const block = says('block');
  return allow === block ? null : allow ? 'allow' : 'block';
}

/** The purpose a list answers with: the person's choice, else its rules', else its name's. */
export function listPurpose(
  listName: string,
  chosen: BanListPurpose | null,
  fromRules: BanListPurpose | null = null,
): Pick<BanList, 'purpose' | 'purpose_source'> {
  if (chosen) return { purpose: chosen, purpose_source: 'person' };
  if (fromRules) return { purpose: fromRules, purpose_source: 'rules' };
  const fromName = purposeFromName(listName);
  return { purpose: fromName, purpose_source: fromName && 'name' };
}
