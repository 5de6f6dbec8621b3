import { useId, useState, type ReactNode } from 'react';
import { Download } from 'lucide-react';
import type { BanListExportFormat } from '@guardian/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { useToast } from '../../../components/ui/toast';
import { actionErrorMessage } from '../../../lib/api';
import { exportBanListItems } from '../../../api/ban-list-items/ban-list-items-export';

interface ExportBanListItemsButtonProps {
  listId: string;
  /** The list's name: the file's name. */
  listName: string | undefined;
  /** The items screen's search as applied (debounced): the export may take its matches only. */
  search: string;
}

const FORMATS: { value: BanListExportFormat; label: string; hint: string }[] = [
  {
    value: 'csv',
    label: 'CSV',
    hint: 'value, comment, expires, added by, added at: for a spreadsheet, and Import reads it back',
  },
  { value: 'txt', label: 'TXT', hint: 'one value per line, for a firewall or a script' },
];

/** Saves `text` as a file, as the Activity export does. */
function download(text: string, fileName: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(url);
}

/** "Export" in the items screen's header: the whole list or the search's matches, as CSV or TXT. */
export function ExportBanListItemsButton({ listId, listName, search }: ExportBanListItemsButtonProps) {
  const [open, setOpen] = useState(false);
  const [format, setFormat] = useState<BanListExportFormat>('csv');
  const [scope, setScope] = useState<'all' | 'search'>('all');
  const [exporting, setExporting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  const name = useId();

  const openDialog = () => {
    setScope(search ? 'search' : 'all');
    setError(null);
    setOpen(true);
  };

  const save = async () => {
    setExporting(true);
    setError(null);
    try {
      const text = await exportBanListItems(listId, { format, search: scope === 'search' ? search : '' });
      const fileName = `${listName ?? listId}${scope === 'search' ? '-search' : ''}.${format}`;
      download(text, fileName, format === 'csv' ? 'text/csv' : 'text/plain');
      setOpen(false);
      toast.success(`${fileName} downloaded.`);
    } catch (caught) {
      setError(actionErrorMessage(caught, 'Failed to export items.'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <Button
        variant="secondary"
        icon={<Download aria-hidden="true" className="size-4" />}
        onClick={openDialog}
      >
        Export
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        busy={exporting}
        size="sm"
        title="Export Items"
        description="Downloads the items from Guardian's copy of the list."
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)} disabled={exporting}>
              Cancel
            </Button>
            <Button type="submit" loading={exporting}>
              {exporting ? 'Exporting...' : 'Download'}
            </Button>
          </>
        }
      >
        {search && (
          <fieldset className="space-y-2">
            <legend className="mb-1 text-sm font-medium text-ink">Items</legend>
            <Choice
              name={`${name}-scope`}
              checked={scope === 'search'}
              onChange={() => setScope('search')}
              label={<>The matches of the search &ldquo;{search}&rdquo;</>}
            />
            <Choice
              name={`${name}-scope`}
              checked={scope === 'all'}
              onChange={() => setScope('all')}
              label="The whole list"
            />
          </fieldset>
        )}
        <fieldset className="space-y-2">
          <legend className="mb-1 text-sm font-medium text-ink">Format</legend>
          {FORMATS.map((option) => (
            <Choice
              key={option.value}
              name={`${name}-format`}
              checked={format === option.value}
              onChange={() => setFormat(option.value)}
              label={
                <>
                  {option.label} <span className="text-ink-muted">({option.hint})</span>
                </>
              }
            />
          ))}
        </fieldset>
        {error && <ErrorMessage>{error}</ErrorMessage>}
      </Dialog>
    </>
  );
}

function Choice({
  name,
  checked,
  onChange,
  label,
}: {
  name: string;
  checked: boolean;
  onChange: () => void;
  label: ReactNode;
}) {
  return (
    <label className="flex cursor-pointer items-start gap-2 text-sm text-ink">
      <input
        type="radio"
        name={name}
        checked={checked}
        onChange={onChange}
        className="mt-0.5 size-4 accent-brand"
      />
      <span className="min-w-0 break-words">{label}</span>
    </label>
  );
}
