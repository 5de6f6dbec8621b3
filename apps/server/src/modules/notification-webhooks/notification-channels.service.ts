import { randomBytes } from 'node:crypto';
import {
  CHANNELS_MAX,
  type ChannelRequest,
  type ChannelTestResult,
  type ChannelUpdate,
  type CreatedChannel,
  type NotificationChannel,
  type NotificationChannels,
} from '@guardian/contract';
import { AppError } from '../../app-error';
import type { TokenCipher } from '../../crypto/token-cipher';
import { maskUrl, urlRefusal } from './channel-sender';
import type { ChannelRow, NotificationChannelsRepository } from './notification-channels.repository';
import type { WebhookChannels } from './webhook-channels';

/** The variable that sets the environment's channel (with _SECRET), as the page names it. */
export const ENVIRONMENT_VARIABLE = 'GUARDIAN_NOTIFICATION_WEBHOOK_URL';
const ENVIRONMENT_CHANNEL_NAME = 'Webhook set by the environment';

/** A Standard Webhooks signing secret: `whsec_` and the base64 of 32 random bytes. */
const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const notFound = () => new AppError('NOT_FOUND', 'Notification channel not found.');

function view(row: ChannelRow): NotificationChannel {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    url_masked: row.url_masked,
    enabled: row.enabled,
    signed: row.signing_secret_encrypted !== null,
    from_environment: row.from_environment ? ENVIRONMENT_VARIABLE : null,
    last_delivery:
      row.last_delivery_at === null
        ? null
        : {
            at: new Date(row.last_delivery_at).toISOString(),
            ok: row.last_delivery_ok ?? false,
            status: row.last_delivery_status,
            message: row.last_delivery_message ?? '',
          },
    failing_count: row.failing_count,
    queued: row.queued,
    dropped: row.dropped_count,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/**
 * System Setting's notification channels: added, changed, deleted and tested by administrators
 * (the routes are `access: 'admin'`). URLs and secrets are stored encrypted and answered masked; a
 * webhook's signing secret is answered once, when it is made.
 */
export class NotificationChannelsService {
  constructor(
    private readonly channels: NotificationChannelsRepository,
    private readonly cipher: TokenCipher,
    private readonly webhooks: WebhookChannels,
    private readonly settings: {
      loopbackHttp: boolean;
      environment: { url: string; secret: string } | undefined;
    },
  ) {}

  /** Writes the environment's channel as the variables say now (or removes it when they are unset). */
  async applyEnvironment(): Promise<void> {
    const { environment } = this.settings;
    await this.channels.setEnvironmentChannel(
      environment && {
        name: ENVIRONMENT_CHANNEL_NAME,
        urlEncrypted: this.cipher.encrypt(environment.url),
        urlMasked: maskUrl(environment.url),
        secretEncrypted: this.cipher.encrypt(environment.secret),
      },
    );
  }

  async list(): Promise<NotificationChannels> {
    return { channels: (await this.channels.list()).map(view), limit: CHANNELS_MAX };
  }

  private checkedUrl(url: string): string {
    const refusal = urlRefusal(url, this.settings.loopbackHttp);
    if (refusal)
      throw new AppError('BAD_REQUEST', refusal, { errors: [{ message: refusal, field: 'webhook_url' }] });
    return url;
  }

  async create(request: ChannelRequest): Promise<CreatedChannel> {
    const url = this.checkedUrl(request.webhook_url);
    const secret = request.type === 'webhook' ? newSigningSecret() : null;
    const id = await this.channels.create({
      name: request.name,
      type: request.type,
      urlEncrypted: this.cipher.encrypt(url),
      urlMasked: maskUrl(url),
      secretEncrypted: secret === null ? null : this.cipher.encrypt(secret),
      enabled: request.enabled ?? true,
    });
    if (id === undefined)
      throw new AppError(
        'CONFLICT',
        `There are ${CHANNELS_MAX} notification channels already, the most there may be: delete one first.`,
      );
    return { channel: view((await this.channels.find(id))!), signing_secret: secret };
  }

  private async existing(id: number): Promise<ChannelRow> {
    const row = await this.channels.find(id);
    if (!row) throw notFound();
    return row;
  }

  private static pinned(): AppError {
    const message = `This channel is set by the environment variable ${ENVIRONMENT_VARIABLE}: change it there.`;
    return new AppError('BAD_REQUEST', message);
  }

  async update(id: number, changes: ChannelUpdate): Promise<NotificationChannel> {
    const row = await this.existing(id);
    if (row.from_environment) throw NotificationChannelsService.pinned();
    const url = changes.webhook_url === undefined ? undefined : this.checkedUrl(changes.webhook_url);
    const found = await this.channels.update(id, {
      name: changes.name,
      enabled: changes.enabled,
      ...(url === undefined ? {} : { urlEncrypted: this.cipher.encrypt(url), urlMasked: maskUrl(url) }),
    });
    if (!found) throw notFound();
    if (changes.enabled === false) await this.webhooks.forget(id);
    return view((await this.channels.find(id))!);
  }

  /** Deletes the channel; answers its name (for the audit trail). */
  async remove(id: number): Promise<string> {
    const row = await this.existing(id);
    if (row.from_environment) throw NotificationChannelsService.pinned();
    const name = await this.channels.remove(id);
    if (name === undefined) throw notFound();
    await this.webhooks.forget(id);
    return name;
  }

  /** "Send a test": the receiver's answer, or a 409 saying what went wrong. */
  async test(id: number, sentBy: string): Promise<ChannelTestResult> {
    const row = await this.existing(id);
    const result = await this.webhooks.test(row, sentBy);
    if (!result.ok || result.status === null)
      throw new AppError('CONFLICT', `The test message was not delivered: ${result.message}`);
    return { status: result.status, answer: result.message };
  }
}
