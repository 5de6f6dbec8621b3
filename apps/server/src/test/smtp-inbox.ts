import { SMTPServer } from 'smtp-server';

/** A message as the test SMTP server received it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  /** The whole message as sent (headers and body). */
  raw: string;
  /** The Subject header, unfolded and decoded (RFC 2047 words). */
  subject: string;
  /** The body decoded (quoted-printable or base64), lines ending in \n. */
  text: string;
  /** When it arrived (Date.now()), as the server took the whole message. */
  receivedAt: number;
}

/** The bytes of a latin1-escaped string (each char one byte) read as UTF-8. */
const utf8Of = (bytes: string) => Buffer.from(bytes, 'latin1').toString('utf8');

const decodeQuotedPrintable = (value: string) =>
  utf8Of(
    value
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
  );

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`), the space between two of them dropped. */
const decodeWords = (value: string) =>
  value.replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=(?:\s+(?==\?))?/g, (_, encoding: string, text: string) =>
    encoding.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );

/** The message's subject and body as a person reads them (what nodemailer encoded, decoded). */
function readMessage(raw: string): { subject: string; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = (split < 0 ? raw : raw.slice(0, split)).replace(/\r?\n[ \t]+/g, ' ');
  const body = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  return { subject: decodeWords(header('Subject')), text: text.replace(/\r\n/g, '\n') };
}

export interface SmtpInbox {
  port: number;
  messages: ReceivedMail[];
  /** Resolves once `count` messages have arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/** The largest message the inbox keeps (a test e-mail or a digest is a few KB). */
const MESSAGE_MAX_BYTES = 1_000_000;

/**
 * A real SMTP server on a loopback port (the `smtp-server` package), plain text, for tests: it keeps
 * what arrives. With `credentials`, it requires them (AUTH PLAIN/LOGIN) and refuses anything else.
 */
export async function startSmtpInbox(credentials?: { user: string; password: string }): Promise<SmtpInbox> {
  const messages: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS'],
    authOptional: credentials === undefined,
    allowInsecureAuth: true,
    size: MESSAGE_MAX_BYTES,
    onAuth(auth, _session, callback) {
      if (credentials && auth.username === credentials.user && auth.password === credentials.password)
        return callback(null, { user: auth.username });
      callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const envelope = session.envelope;
        messages.push({
          from: envelope.mailFrom ? envelope.mailFrom.address : '',
          to: envelope.rcptTo.map((recipient) => recipient.address),
          raw,
          ...readMessage(raw),
          receivedAt: Date.now(),
        });
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as { port: number };
  return {
    port,
    messages,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`${messages.length} of ${count} e-mails arrived within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => (clearTimeout(timer), resolve()));
        });
      }
      return messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
