import { useEffect, useRef, useState } from 'react';
import { Copy } from 'lucide-react';
import { Button } from './button';
import { CodeValue } from './copyable-code';

/**
 * A password or set-password link shown once: the text to select, and Copy. Whether the copy worked is
 * said beside the button (a status, not a toast: the dialog stays in front).
 */
export function OneTimeSecret({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  // Shown in place of the form whose button had the focus: the focus moves to what comes next, Copy.
  const frame = useRef<HTMLDivElement>(null);
  useEffect(() => frame.current?.querySelector('button')?.focus(), []);
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  return (
    <div ref={frame} className="space-y-1.5">
      <p className="text-sm font-medium text-ink">{label}</p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <CodeValue label={label} value={value} className="border border-line text-ink select-all" />
        <Button
          variant="secondary"
          size="sm"
          icon={<Copy aria-hidden="true" className="size-4" />}
          aria-label={`Copy ${label.toLowerCase()}`}
          onClick={() => void copy()}
        >
          Copy
        </Button>
      </div>
      <p role="status" className="min-h-5 text-xs text-ink-muted">
        {copied === 'yes' && 'Copied.'}
        {copied === 'failed' && (
          <span className="text-danger">Could not copy: select the text and copy it.</span>
        )}
      </p>
    </div>
  );
}
