import { ALERT_KIND_LABELS, type ChannelType } from '@guardian/contract';
import { Webhook } from 'standardwebhooks';
import type { AlertNotice } from './alert-notice';

/** What is posted to a channel: the JSON body and the headers beside `content-type`. */
export interface ChannelRequestBody {
  body: string;
  headers: Record<string, string>;
}

/** A message to a channel: an alert, or the test an administrator sends from System Setting. */
export type ChannelMessage =
  | { type: 'alert.raised'; notice: AlertNotice }
  | { type: 'channel.test'; channelName: string; sentBy: string };

/** Discord refuses a `content` longer than this. */
const DISCORD_CONTENT_MAX = 2_000;
/** Slack's recommended limit of a message's text (it truncates beyond 40,000). */
const SLACK_TEXT_MAX = 4_000;

const SEVERITY_WORDS = { info: 'Information', warning: 'Warning', critical: 'Critical' } as const;
const TEAMS_COLOURS = { info: '2563EB', warning: 'D97706', critical: 'DC2626' } as const;

const linkOf = (publicUrl: string | undefined, path: string) =>
  publicUrl === undefined ? undefined : `${publicUrl}${path}`;

/** Slack's mrkdwn needs &, < and > escaped (they start its links and mentions). */
const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** Discord's markdown: its formatting characters escaped, so a title cannot format or mention. */
const discordEscape = (text: string) => text.replace(/([\\*_~`|>[\]()#@-])/g, '\\$1');
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The alert in plain words, for the services without a format of their own. */
function alertLines(notice: AlertNotice) {
  const heading = `[${SEVERITY_WORDS[notice.severity]}] ${ALERT_KIND_LABELS[notice.kind] ?? notice.kind}`;
  const facts = [
    `Person: ${notice.userEmail}`,
    ...(notice.subject ? [`About: ${notice.subject.type} ${notice.subject.name}`] : []),
    `Seen ${notice.count === 1 ? 'once' : `${notice.count} times`}, last at ${notice.lastSeen}`,
  ];
  return { heading, facts };
}

/**
 * The request a channel of `type` receives for `message`: Standard Webhooks' signed JSON, or the body
 * each service's incoming webhook takes. No secret, token or key of anyone's is ever in it.
 */
export function channelRequest(
  type: ChannelType,
  message: ChannelMessage,
  options: { messageId: string; signingSecret: string | null; publicUrl: string | undefined; sentAt: Date },
): ChannelRequestBody {
  if (type === 'webhook') return standardWebhook(message, options);
  const link =
    message.type === 'alert.raised' ? linkOf(options.publicUrl, message.notice.path) : options.publicUrl;
  const { heading, facts, title } =
    message.type === 'alert.raised'
      ? { ...alertLines(message.notice), title: message.notice.title }
      : {
          heading: 'Guardian test message',
          facts: [`Sent by ${message.sentBy} from System Setting.`],
          title: `Notification channel "${message.channelName}" works.`,
        };
  switch (type) {
    case 'slack': {
      const linkText = link ? `\n<${link}|Open in Guardian>` : '';
      const text = `*${slackEscape(heading)}*\n${slackEscape(title)}\n${facts.map(slackEscape).join('\n')}`;
      return json({ text: `${cut(text, SLACK_TEXT_MAX - linkText.length)}${linkText}` });
    }
    case 'teams':
      // Teams' incoming webhooks take a MessageCard (the connectors' format; Workflows' webhooks too).
      return json({
        '@type': 'MessageCard',
        '@context': 'https://schema.org/extensions',
        summary: cut(`${heading}: ${title}`, 200),
        themeColor:
          message.type === 'alert.raised' ? TEAMS_COLOURS[message.notice.severity] : TEAMS_COLOURS.info,
        title: heading,
        sections: [{ activityTitle: title, text: facts.join('<br>'), markdown: false }],
        ...(link
          ? {
              potentialAction: [
                { '@type': 'OpenUri', name: 'Open in Guardian', targets: [{ os: 'default', uri: link }] },
              ],
            }
          : {}),
      });
    case 'discord': {
      const linkText = link ? `\n[Open in Guardian](<${link}>)` : '';
      const text = `**${discordEscape(heading)}**\n${discordEscape(title)}\n${facts.map(discordEscape).join('\n')}`;
      // No mention of anyone or any role, whatever a title holds.
      return json({
        content: `${cut(text, DISCORD_CONTENT_MAX - linkText.length)}${linkText}`,
        allowed_mentions: { parse: [] },
      });
    }
  }
}

const json = (value: unknown): ChannelRequestBody => ({ body: JSON.stringify(value), headers: {} });

/**
 * Standard Webhooks: `{ type, timestamp, data }`, signed with the channel's secret (`webhook-id` the
 * message's, the same on every attempt, `webhook-timestamp` in seconds, `webhook-signature` `v1,...`).
 */
function standardWebhook(
  message: ChannelMessage,
  options: { messageId: string; signingSecret: string | null; publicUrl: string | undefined; sentAt: Date },
): ChannelRequestBody {
  if (!options.signingSecret) throw new Error('A webhook channel has no signing secret.');
  const data =
    message.type === 'alert.raised'
      ? { ...message.notice, url: linkOf(options.publicUrl, message.notice.path) ?? null }
      : { channel: message.channelName, sent_by: message.sentBy, message: 'This is a test from Guardian.' };
  const body = JSON.stringify({ type: message.type, timestamp: options.sentAt.toISOString(), data });
  return {
    body,
    headers: {
      'webhook-id': options.messageId,
      'webhook-timestamp': String(Math.floor(options.sentAt.getTime() / 1000)),
      'webhook-signature': new Webhook(options.signingSecret).sign(options.messageId, options.sentAt, body),
    },
  };
}
