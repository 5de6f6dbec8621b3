// The server tests' SMTP inbox (a real SMTP server on a loopback port), shared rather than copied.
export { startSmtpInbox, type SmtpInbox } from '../../apps/server/src/test/smtp-inbox';
