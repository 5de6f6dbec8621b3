import nodemailer from 'nodemailer';
import { AppError } from '../../app-error';
import type { SmtpSettings } from './system-settings.service';

/** Bounds of one delivery: connecting, the server's greeting, and silence on the socket. */
const CONNECTION_TIMEOUT_MS = 10_000;
const GREETING_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 20_000;
/** The longest server answer quoted back to the administrator. */
const ANSWER_MAX = 300;

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Outgoing e-mail over SMTP through nodemailer (the long-kept standard for Node: STARTTLS and TLS,
 * authentication, timeouts, and an RFC 5322 message we do not write by hand). The settings are read at
 * each send (System Setting), so a change applies to the next e-mail; a transport per send, as these
 * are few (a test, a digest every 15 minutes at most per person and kind).
 */
export class Mailer {
  constructor(private readonly settings: () => SmtpSettings) {}

  /** Sends one e-mail; answers what the SMTP server said when it took it. A failure is an UPSTREAM AppError in words. */
  async send(mail: Mail): Promise<string> {
    const smtp = this.settings();
    if (!smtp.host || !smtp.sender) {
      throw new AppError(
        'BAD_REQUEST',
        'Outgoing e-mail is not set up: set the SMTP host and the sender in System Setting first.',
      );
    }
    const transport = nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.tls === 'tls',
      requireTLS: smtp.tls === 'starttls',
      ignoreTLS: smtp.tls === 'none',
      auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? '' } : undefined,
      connectionTimeout: CONNECTION_TIMEOUT_MS,
      greetingTimeout: GREETING_TIMEOUT_MS,
      socketTimeout: SOCKET_TIMEOUT_MS,
    });
    try {
      const info = await transport.sendMail({ from: smtp.sender, ...mail });
      return String(info.response ?? '').slice(0, ANSWER_MAX);
    } catch (err) {
      throw new AppError('UPSTREAM', `The e-mail was not sent: ${describeSmtpError(err, smtp)}`, {
        cause: err,
      });
    } finally {
      transport.close();
    }
  }
}

/** nodemailer's failure in a person's words: which server, and what went wrong. */
function describeSmtpError(err: unknown, smtp: SmtpSettings): string {
  const { code, response, message } = err as { code?: string; response?: string; message?: string };
  const server = `${smtp.host}:${smtp.port}`;
  const said = (response ?? message ?? 'no reason given').slice(0, ANSWER_MAX);
  switch (code) {
    case 'ECONNECTION':
    case 'ESOCKET':
    case 'EDNS':
      return `the SMTP server ${server} could not be reached (${said}).`;
    case 'ETIMEDOUT':
      return `the SMTP server ${server} did not answer in time.`;
    case 'EAUTH':
      return `the SMTP server ${server} refused the user name and password (${said}).`;
    case 'ETLS':
      return `TLS with the SMTP server ${server} failed (${said}): check the TLS setting and the port.`;
    case 'EENVELOPE':
      return `the SMTP server ${server} refused the sender or the recipient (${said}).`;
    default:
      return `the SMTP server ${server} answered: ${said}`;
  }
}
