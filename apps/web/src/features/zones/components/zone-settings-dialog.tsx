import { useState } from 'react';
import type { ZoneSettings } from '@guardian/contract';
import { Button } from '../../../components/ui/button';
import { Switch } from '../../../components/ui/checkbox';
import { Dialog } from '../../../components/ui/dialog';

const SETTINGS: { key: keyof ZoneSettings; label: string }[] = [
  { key: 'alwaysUseHTTPS', label: 'Always Use HTTPS' },
  { key: 'botFightMode', label: 'Bot Fight Mode' },
  { key: 'underAttackMode', label: 'Under Attack Mode' },
  { key: 'blockAITrainingBots', label: 'Block AI Training Bots' },
];

const STATE_LABELS = { on: 'Active', off: 'Passive' };

interface ZoneSettingsDialogProps {
  domain: string;
  settings: ZoneSettings;
  onSave: (settings: ZoneSettings) => void;
  onClose: () => void;
}

/**
 * The zone settings toggles (spec section 4). They are local only: Save keeps them for this page
 * and closes the dialog, nothing is sent. Mount it only while open, so each opening starts from the
 * saved settings.
 */
export function ZoneSettingsDialog({ domain, settings, onSave, onClose }: ZoneSettingsDialogProps) {
  const [draft, setDraft] = useState(settings);
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Zone Settings"
      description={domain}
      size="sm"
      onSubmit={() => onSave(draft)}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit">Save</Button>
        </>
      }
    >
      <div className="divide-y divide-line">
        {SETTINGS.map(({ key, label }) => (
          <Switch
            key={key}
            className="py-3"
            label={label}
            checked={draft[key]}
            onCheckedChange={(checked) => setDraft((current) => ({ ...current, [key]: checked }))}
            stateLabels={STATE_LABELS}
          />
        ))}
      </div>
    </Dialog>
  );
}
