import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  BAN_LIST_EXPORT_CSV_COLUMNS,
  BAN_LIST_IMPORT_LINES_MAX,
  BAN_LIST_IMPORT_PREVIEW_MINUTES,
  BAN_LIST_IMPORT_TEXT_MAX,
  itemExpirySchema,
  type BanListImportPreview,
  type BanListImportResult,
  type BanListKind,
  type ItemExpiry,
} from '@guardian/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Field, Textarea } from '../../../components/ui/input';
import {
  refetchImported,
  useApplyImportMutation,
  usePreviewImportMutation,
} from '../../../api/ban-list-items/ban-list-items-import';
import { isJob, useFollowedJob } from '../../../api/jobs/follow-job';
import { describeJobProgress } from '../../../api/jobs/job-progress';
import { JOB_POLL_MS } from '../../../api/jobs/job-query';
import { hasEnded } from '../../../api/jobs/keys';
import { errorMessage } from '../../../lib/api';
import { ItemExpiryField } from './item-expiry-field';
import { counted } from '../../../lib/counted';

/** What a line of the text holds, by list kind (the import's one-value-a-line form). */
const LINE_EXAMPLES: Record<BanListKind, string> = {
  ip: '203.0.113.7\n198.51.100.0/24\n2001:db8::/48',
  hostname: 'host.example.com\n*.example.org',
  asn: 'AS13335\n15169',
  redirect: 'example.com/old -> https://example.com/new',
};

/** What one line holds, in the dialog's description. */
const LINE_NOUNS: Record<BanListKind, string> = {
  ip: 'IP address or CIDR',
  hostname: 'hostname',
  asn: 'AS number',
  redirect: 'redirect (source -> target)',
};

/** The largest file read (the text's own bound: a larger one would be refused anyway). */
const FILE_BYTES_MAX = BAN_LIST_IMPORT_TEXT_MAX;

/** A file's text (FileReader: what every browser, and jsdom, reads a File with). */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsText(file);
  });
}

interface ImportBanListItemsDialogProps {
  listId: string;
  kind: BanListKind | undefined;
  onClose: () => void;
  onImported: (result: BanListImportResult) => void;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Import items: paste or upload text (one value a line, a `# comment` after it) or CSV (read by its
 * header's names, an export of a list as it is; without a header value,comment,expires); the server's
 * preview says what would be added, what the list has, what repeats, and every invalid line; nothing
 * is sent to Cloudflare until Import is pressed. Then the import runs as a job, its progress shown
 * here. Mount it only while open.
 */
export function ImportBanListItemsDialog({
  listId,
  kind,
  onClose,
  onImported,
}: ImportBanListItemsDialogProps) {
  const queryClient = useQueryClient();
  const previewMutation = usePreviewImportMutation(listId);
  const applyMutation = useApplyImportMutation(listId);
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [preview, setPreview] = useState<BanListImportPreview | null>(null);
  const [expires, setExpires] = useState<ItemExpiry | ''>('never');
  const [expiryError, setExpiryError] = useState<string | undefined>(undefined);
  const [jobId, setJobId] = useState<string | null>(null);
  // While Import waits for the server's answer (up to its wait, seconds), the job it started is found
  // among the person's jobs, so that its count shows from the start rather than after the wait.
  const followed = useFollowedJob({
    started: jobId,
    find: applyMutation.isPending ? (one) => one.kind === 'ban-list-import' && one.list_id === listId : null,
    findEvery: applyMutation.isPending ? JOB_POLL_MS : false,
  });
  const { job, progress } = followed;
  // The job this dialog started, once it has ended: a success closes the dialog, a failure says why.
  const ended = job && job.id === jobId && hasEnded(job) ? job : null;
  const running = followed.id !== null && ended === null;
  const jobError =
    ended && ended.state !== 'succeeded'
      ? ended.state === 'cancelled'
        ? 'The import was cancelled.'
        : (ended.error ?? 'The import failed.')
      : null;
  const busy = previewMutation.isPending || applyMutation.isPending || running;
  const progressText =
    !job || !progress || job.state === 'queued'
      ? 'Waiting for its turn'
      : // Cloudflare takes the import in one write, which counts nothing until it ends; then the job
        // counts the items as it records them in Guardian, with their rate, as other jobs count theirs.
        progress.total !== null && progress.total > 0 && progress.done === 0
        ? `Sending ${counted(progress.total, 'item')} to Cloudflare...`
        : describeJobProgress(progress);
  const announced = useRef<string | null>(null);
  useEffect(() => {
    if (!ended || announced.current === ended.id) return;
    announced.current = ended.id;
    void refetchImported(queryClient, listId);
    if (ended.state === 'succeeded') onImported(ended.result as BanListImportResult);
  }, [ended, listId, onImported, queryClient]);

  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setFileError(null);
    if (!file) return;
    if (file.size > FILE_BYTES_MAX) {
      setFileError(`The file is larger than ${count(FILE_BYTES_MAX / 1_000_000)} MB: split it.`);
      return;
    }
    setFileName(file.name);
    setText(await readText(file));
    setPreview(null);
  };

  const runPreview = () => {
    setPreview(null);
    previewMutation.mutate({ text, format: 'auto' }, { onSuccess: setPreview });
  };

  const apply = () => {
    if (!preview?.id) return;
    const checked = itemExpirySchema.safeParse(expires);
    if (!checked.success) {
      setExpiryError(checked.error.issues[0]?.message ?? 'Choose when the items expire.');
      return;
    }
    setExpiryError(undefined);
    applyMutation.mutate(
      { importId: preview.id, expires: checked.data },
      {
        onSuccess: (answer) => {
          if (isJob(answer)) {
            setJobId(answer.id);
            return;
          }
          void refetchImported(queryClient, listId);
          onImported(answer);
        },
      },
    );
  };

  const canApply = preview !== null && preview.refused === null && preview.to_add > 0 && jobError === null;

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Import Items"
      description={
        preview
          ? 'Check what the import adds; nothing is sent to Cloudflare until you press Import.'
          : `Paste or upload one ${LINE_NOUNS[kind ?? 'ip']} a line, or CSV: a list's export imports as it is.`
      }
      size="lg"
      busy={busy}
      footer={
        preview ? (
          <>
            <Button variant="secondary" disabled={busy} onClick={() => setPreview(null)}>
              Back
            </Button>
            <Button loading={applyMutation.isPending || running} disabled={!canApply} onClick={apply}>
              {running || applyMutation.isPending
                ? 'Importing...'
                : `Import ${counted(preview.to_add, 'item')}`}
            </Button>
          </>
        ) : (
          <>
            <Button variant="secondary" disabled={busy} onClick={onClose}>
              Cancel
            </Button>
            <Button loading={previewMutation.isPending} disabled={text.trim() === ''} onClick={runPreview}>
              {previewMutation.isPending ? 'Reading...' : 'Preview'}
            </Button>
          </>
        )
      }
    >
      {!preview && (
        <>
          <Field label="Items" hint={`At most ${count(BAN_LIST_IMPORT_LINES_MAX)} lines.`} error={fileError}>
            {(control) => (
              <Textarea
                {...control}
                className="min-h-48 font-mono text-xs"
                value={text}
                placeholder={LINE_EXAMPLES[kind ?? 'ip']}
                spellCheck={false}
                autoCapitalize="none"
                onChange={(event) => {
                  setText(event.target.value);
                  setFileName(null);
                }}
              />
            )}
          </Field>
          <Field label="Or upload a file (.txt or .csv)" hint={fileName ? `Read: ${fileName}` : undefined}>
            {({ invalid: _invalid, ...control }) => (
              <input
                {...control}
                type="file"
                accept=".txt,.csv,text/plain,text/csv"
                className="block w-full text-sm text-ink file:mr-3 file:rounded-control file:border file:border-line-strong file:bg-surface file:px-3 file:py-1.5 file:text-sm file:text-ink"
                onChange={(event) => void readFile(event)}
              />
            )}
          </Field>
          <ImportFormatHelp />
          {previewMutation.isError && (
            <ErrorMessage>{errorMessage(previewMutation.error, 'Failed to read the import.')}</ErrorMessage>
          )}
        </>
      )}
      {preview && (
        <>
          <dl aria-label="Import preview" className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
            <Figure label="Will be added" value={preview.to_add} strong />
            <Figure label="Already in the list" value={preview.already_listed} />
            <Figure label="Repeated in the file" value={preview.repeated} />
            <Figure label="Invalid lines" value={preview.invalid_count} danger={preview.invalid_count > 0} />
          </dl>
          <p className="text-xs text-ink-muted">
            {count(preview.lines)} lines read as {preview.format === 'csv' ? 'CSV' : 'text'}. The account uses{' '}
            {count(preview.capacity.used)} of {count(preview.capacity.limit)} list items (
            {preview.capacity.plan} plan). This preview can be imported for {BAN_LIST_IMPORT_PREVIEW_MINUTES}{' '}
            minutes.
          </p>
          {preview.refused && <ErrorMessage>{preview.refused}</ErrorMessage>}
          {preview.invalid.length > 0 && (
            <div className="max-h-56 overflow-y-auto rounded-control border border-line">
              <table className="w-full text-left text-xs">
                <caption className="sr-only">Invalid lines</caption>
                <thead className="sticky top-0 bg-canvas text-ink-muted">
                  <tr>
                    <th scope="col" className="px-2 py-1.5 font-medium">
                      Line
                    </th>
                    <th scope="col" className="px-2 py-1.5 font-medium">
                      Text
                    </th>
                    <th scope="col" className="px-2 py-1.5 font-medium">
                      Reason
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {preview.invalid.map((line) => (
                    <tr key={line.line} className="border-t border-line align-top">
                      <td data-label="Line" className="px-2 py-1.5 tabular-nums">
                        {line.line}
                      </td>
                      <td data-label="Text" className="px-2 py-1.5 font-mono break-all">
                        {line.text}
                      </td>
                      <td data-label="Reason" className="px-2 py-1.5 text-danger">
                        {line.reason}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {preview.invalid.length < preview.invalid_count && (
                <p className="border-t border-line px-2 py-1.5 text-xs text-ink-muted">
                  The first {count(preview.invalid.length)} of {count(preview.invalid_count)} invalid lines
                  are listed.
                </p>
              )}
            </div>
          )}
          <ItemExpiryField
            value={expires}
            onChange={(value) => {
              setExpires(value);
              setExpiryError(undefined);
            }}
            error={expiryError}
            disabled={busy}
          />
          <p className="-mt-2 text-xs text-ink-muted">For the items whose CSV line gives no expiry.</p>
          {running && (
            <div
              role="progressbar"
              aria-label="Import progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={progress?.percent ?? undefined}
              aria-valuetext={progressText}
              className="space-y-1.5"
            >
              <p className="text-sm text-ink-muted tabular-nums">{progressText}</p>
              <div className="h-1.5 overflow-hidden rounded-full bg-line">
                <div
                  className="h-full bg-brand transition-[width]"
                  style={{ width: `${progress?.percent ?? 0}%` }}
                />
              </div>
            </div>
          )}
          {applyMutation.isError && (
            <ErrorMessage>{errorMessage(applyMutation.error, 'Failed to import the items.')}</ErrorMessage>
          )}
          {jobError && <ErrorMessage>{jobError}</ErrorMessage>}
        </>
      )}
    </Dialog>
  );
}

/** The formats an import reads (list-import.ts on the server; the module's README.md). */
function ImportFormatHelp() {
  return (
    <details className="text-xs text-ink-muted">
      <summary className="w-fit cursor-pointer rounded-control hover:text-ink focus-visible:outline-2 focus-visible:outline-brand">
        Formats
      </summary>
      <ul className="mt-1.5 list-disc space-y-1 pl-4">
        <li>
          Text: one value a line; a <code className="font-mono">#</code> after the value and a space starts
          its comment (<code className="font-mono">203.0.113.7 # scanner</code>); a line starting with{' '}
          <code className="font-mono">#</code> is skipped.
        </li>
        <li>
          CSV with a header, its columns by name in any order, as Export writes them:{' '}
          <code className="font-mono">{BAN_LIST_EXPORT_CSV_COLUMNS.join(',')}</code> (
          <code className="font-mono">ip</code> for value; an older export&apos;s{' '}
          <code className="font-mono">ip,comment,created_on</code> too). Who added an item and when are not
          read: the import records its own.
        </li>
        <li>
          CSV without a header: <code className="font-mono">value,comment,expires</code>.
        </li>
        <li>
          Expires: never, 1h, 1d, 7d, 30d, a date (2027-01-31) or a date and time (2027-01-31T12:00:00Z);
          empty for the expiry chosen after Preview.
        </li>
      </ul>
    </details>
  );
}

function Figure({
  label,
  value,
  strong,
  danger,
}: {
  label: string;
  value: number;
  strong?: boolean;
  danger?: boolean;
}) {
  return (
    <div className="rounded-control border border-line px-3 py-2">
      <dt className="text-xs text-ink-muted">{label}</dt>
      <dd
        className={
          danger
            ? 'text-lg font-semibold text-danger'
            : strong
              ? 'text-lg font-semibold text-ink'
              : 'text-lg text-ink'
        }
      >
        {count(value)}
      </dd>
    </div>
  );
}
