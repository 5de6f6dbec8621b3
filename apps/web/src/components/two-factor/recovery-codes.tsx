import { CopyButton, DownloadButton } from '../ui/button';
import { useCopy } from '../ui/copyable-code';

/** The recovery codes, shown once: a list to read, Copy and Download (a text file). */
export function RecoveryCodes({ codes, email }: { codes: string[]; email: string | null }) {
  const copy = useCopy();
  const text = `Guardian recovery codes${email ? ` for ${email}` : ''}\nEach code works once.\n\n${codes.join('\n')}\n`;
  const copyCodes = () =>
    copy(codes.join('\n'), {
      copied: 'Recovery codes copied.',
      failed: 'Could not copy: select the codes and copy them.',
    });
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'guardian-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="grid gap-3">
      <ol
        aria-label="Recovery codes"
        className="grid grid-cols-1 gap-x-6 gap-y-1 rounded-control bg-canvas px-4 py-3 font-mono text-sm text-ink min-[360px]:grid-cols-2"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <CopyButton onClick={() => void copyCodes()} />
        <DownloadButton onClick={download} />
      </div>
    </div>
  );
}
