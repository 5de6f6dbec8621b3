import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** The largest message the demo's inbox takes (an alert digest is a few KB). */
const MESSAGE_MAX_BYTES = 1_000_000;
/** How many lines of each e-mail's body the log shows. */
const LOGGED_LINES = 4;

/** The demo's sender: the SMTP setting the demo made (and may move to its inbox's new port) names it. */
export const DEMO_SENDER = 'Guardian demo <guardian@guardian.local>';

export interface DemoInbox {
  port: number;
  close(): Promise<void>;
}

const decodeQuotedPrintable = (value: string) =>
  Buffer.from(
    value
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** The subject and the first lines of a message as a person reads them. */
function summaryOf(raw: string): { subject: string; lines: string[] } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = (split < 0 ? raw : raw.slice(0, split)).replace(/\r?\n[ \t]+/g, ' ');
  let body = split < 0 ? '' : raw.slice(split).trimStart();
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  if (encoding === 'quoted-printable') body = decodeQuotedPrintable(body);
  if (encoding === 'base64') body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  const subject = header('Subject').replace(
    /=\?[^?]+\?([QqBb])\?([^?]*)\?=\s*/g,
    (_, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
  const lines = body
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(0, LOGGED_LINES);
  return { subject, lines };
}

/**
 * The demo's own SMTP server on a loopback port (the `smtp-server` package, the one the tests use):
 * it takes every e-mail Guardian sends and writes it to the demo's log ("demo inbox: ..."), so alert
 * e-mails, digests and test e-mails are seen without a mail account. Nothing is kept or relayed.
 */
export async function startDemoInbox(log: (line: string) => void, port = 0): Promise<DemoInbox> {
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    size: MESSAGE_MAX_BYTES,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MESSAGE_MAX_BYTES) chunks.push(chunk);
      });
      stream.on('end', () => {
        const { subject, lines } = summaryOf(Buffer.concat(chunks).toString('utf8'));
        const to = session.envelope.rcptTo.map((recipient) => recipient.address).join(', ');
        log(`demo inbox: to ${to}, subject "${subject}"`);
        for (const line of lines) log(`demo inbox:   ${line}`);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
