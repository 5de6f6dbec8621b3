import { clsx } from 'clsx';
import { CopyButton } from './button';
import { useToast } from './toast';

/** What the toast says after a copy ('API key copied.'), and how to copy by hand when the browser refused. */
export interface CopyWords {
  copied: string;
  failed: string;
}

/** Puts a text on the clipboard and says so in a toast. */
export function useCopy() {
  const toast = useToast();
  return (text: string, { copied, failed }: CopyWords) =>
    navigator.clipboard.writeText(text).then(
      () => toast.success(copied),
      () => toast.error(failed),
    );
}

/** A value shown once, as text to select and copy by hand, named by `label` ('API key'). */
export function CodeValue({ label, value, className }: { label: string; value: string; className?: string }) {
  return (
    <code
      aria-label={label}
      className={clsx(
        'min-w-0 flex-1 rounded-control bg-canvas px-3 py-2 font-mono text-xs break-all',
        className,
      )}
    >
      {value}
    </code>
  );
}

/**
 * A value shown once (a key, a signing secret): the text to select, and Copy, told in a toast. The
 * toast names the value by its label unless `words` says otherwise.
 */
export function CopyableCode({ label, value, words }: { label: string; value: string; words?: CopyWords }) {
  const copy = useCopy();
  const said = words ?? {
    copied: `${label} copied.`,
    failed: `Could not copy: select the ${label.toLowerCase()} and copy it.`,
  };
  return (
    <div className="flex items-center gap-2">
      <CodeValue label={label} value={value} />
      <CopyButton onClick={() => void copy(value, said)} />
    </div>
  );
}
