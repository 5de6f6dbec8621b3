import { useState } from 'react';
import {
  ZONE_SETTING_KEYS,
  ZONE_SETTING_LABELS,
  type UpdateZoneSettingsRequest,
  type ZoneSettingKey,
  type ZoneSettingProblem,
  type ZoneSettingsState,
} from '@guardian/contract';
import { Button } from '../../../components/ui/button';
import { Switch } from '../../../components/ui/checkbox';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Spinner } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toast';
import { actionErrorMessage } from '../../../lib/api';
import { useZoneSettingsQuery } from '../../../api/zone-settings/zone-settings-query';
import { useUpdateZoneSettingsMutation } from '../../../api/zone-settings/zone-settings-update-mutation';

const STATE_LABELS = { on: 'Active', off: 'Passive' };

type Values = Record<ZoneSettingKey, boolean | null>;

function valuesOf(state: ZoneSettingsState): Values {
  return Object.fromEntries(ZONE_SETTING_KEYS.map((key) => [key, state[key]])) as Values;
}

interface ZoneSettingsDialogProps {
  zoneId: string;
  domain: string;
  onClose: () => void;
}

/**
 * The zone settings switches, live at Cloudflare: read when the dialog opens, and on Save only the
 * changed ones are sent, each by its own call. A setting that fails is named and keeps its old value;
 * the others stay applied. Mount it only while open, so each opening reads Cloudflare again.
 */
export function ZoneSettingsDialog({ zoneId, domain, onClose }: ZoneSettingsDialogProps) {
  const settings = useZoneSettingsQuery(zoneId);
  const toast = useToast();
  const save = useUpdateZoneSettingsMutation(zoneId);
  // What Cloudflare has (as last read or saved) and what the person set; null until read.
  const [saved, setSaved] = useState<Values | null>(null);
  const [draft, setDraft] = useState<Values | null>(null);
  const [failed, setFailed] = useState<ZoneSettingProblem[]>([]);
  if (settings.data && saved === null) {
    // Set while rendering, once the read arrives: the switches start from Cloudflare's values.
    setSaved(valuesOf(settings.data));
    setDraft(valuesOf(settings.data));
  }

  const changes: UpdateZoneSettingsRequest =
    saved && draft
      ? Object.fromEntries(
          ZONE_SETTING_KEYS.filter((key) => saved[key] !== null && draft[key] !== saved[key]).map((key) => [
            key,
            draft[key],
          ]),
        )
      : {};

  const submit = () => {
    if (!saved) return;
    // Nothing changed: nothing to send.
    if (Object.keys(changes).length === 0) return onClose();
    setFailed([]);
    save.mutate(changes, {
      onSuccess: ({ applied, failed: failures }) => {
        const nowSaved = { ...saved, ...applied };
        setSaved(nowSaved);
        // A failed setting shows the value Cloudflare still has.
        setDraft((current) => {
          const next = { ...current!, ...applied };
          for (const failure of failures) next[failure.setting] = nowSaved[failure.setting];
          return next;
        });
        if (failures.length === 0) {
          toast.success('Zone settings saved.');
          onClose();
        } else setFailed(failures);
      },
    });
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Zone Settings"
      description={domain}
      size="sm"
      busy={save.isPending}
      onSubmit={submit}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          {settings.isError && !draft ? (
            <Button onClick={() => void settings.refetch()} loading={settings.isFetching}>
              Retry
            </Button>
          ) : (
            <Button type="submit" loading={save.isPending} disabled={!draft}>
              {save.isPending ? 'Saving...' : 'Save'}
            </Button>
          )}
        </>
      }
    >
      {!draft ? (
        settings.isError && !settings.isFetching ? (
          <ErrorMessage>{actionErrorMessage(settings.error, 'Failed to load zone settings.')}</ErrorMessage>
        ) : (
          <p className="flex items-center gap-2 py-3 text-sm text-ink-muted">
            <Spinner size="sm" label={null} /> Loading zone settings...
          </p>
        )
      ) : (
        <div className="divide-y divide-line">
          {ZONE_SETTING_KEYS.map((key) => (
            <Switch
              key={key}
              className="py-3"
              label={ZONE_SETTING_LABELS[key]}
              checked={draft[key] ?? false}
              disabled={draft[key] === null || save.isPending}
              onCheckedChange={(checked) => setDraft((current) => ({ ...current!, [key]: checked }))}
              stateLabels={STATE_LABELS}
            />
          ))}
        </div>
      )}
      {settings.data && settings.data.unreadable.length > 0 && (
        <ErrorMessage>
          {settings.data.unreadable.map((problem) => (
            <p key={problem.setting}>{problem.message}</p>
          ))}
        </ErrorMessage>
      )}
      {failed.length > 0 && (
        <ErrorMessage>
          {failed.map((problem) => (
            <p key={problem.setting}>{problem.message}</p>
          ))}
        </ErrorMessage>
      )}
      {save.isError && (
        <ErrorMessage>{actionErrorMessage(save.error, 'Failed to save zone settings.')}</ErrorMessage>
      )}
    </Dialog>
  );
}
