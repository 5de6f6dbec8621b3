import type { BanList, BanListPurpose } from '@guardian/contract';
import { Select } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { useSetBanListPurposeMutation } from '../../../api/ban-lists/ban-list-purpose-mutation';
import { actionErrorMessage } from '../../../lib/api';
import { purposeLabel, purposeSourceWords } from '../../../lib/ban-list-purpose';

/**
 * What the list is for, as the person sets it: a blocklist or an allowlist (Ban everywhere preselects
 * blocklists and asks before banning into an allowlist). Until set, the rules' or the name's suggestion shows.
 */
export function BanListPurposeField({ banList }: { banList: BanList }) {
  const setPurpose = useSetBanListPurposeMutation();
  const toast = useToast();
  const chosen = banList.purpose_source === 'person' ? banList.purpose : null;
  const source = purposeSourceWords(banList);
  // Until the person sets it, what the rules or the name suggest.
  const inferred = chosen === null && source ? `${purposeLabel(banList)} (${source})` : undefined;

  const change = (value: string) => {
    const purpose = value === '' ? null : (value as BanListPurpose);
    setPurpose.mutate(
      { banList, purpose },
      { onError: (error) => toast.error(actionErrorMessage(error, 'Failed to set the purpose.')) },
    );
  };

  return (
    <div className="mb-4 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
      <label htmlFor="ban-list-purpose" className="font-medium text-ink">
        Purpose
      </label>
      <Select
        id="ban-list-purpose"
        className="w-auto"
        value={chosen ?? ''}
        disabled={setPurpose.isPending}
        aria-describedby="ban-list-purpose-source"
        onChange={(event) => change(event.target.value)}
      >
        <option value="">{inferred ?? 'Not set'}</option>
        <option value="block">Blocklist</option>
        <option value="allow">Allowlist</option>
      </Select>
      <span id="ban-list-purpose-source" className="text-ink-muted">
        {source ? `${purposeLabel(banList)}, ${source}.` : 'Not set: Ban everywhere does not preselect it.'}
      </span>
    </div>
  );
}
