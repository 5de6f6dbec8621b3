import {
  SETTING_LABELS,
  SMTP_TLS_MODES,
  type SettingName,
  type SmtpTlsMode,
  type SystemSettings as SystemSettingsView,
  type SystemSettingsUpdate,
  type SystemSettingsValues,
} from '@guardian/contract';
import { AppError } from '../../app-error';
import type { Config, LoginRateLimit } from '../../config';
import type { TokenCipher } from '../../crypto/token-cipher';
import type { Queryable } from '../../db';
import { PeriodicSweep } from '../../periodic-sweep';
import { SystemSettingsRepository, type StoredSetting } from './system-settings.repository';

/** The outgoing e-mail's settings as the mailer uses them. */
export interface SmtpSettings {
  host: string | null;
  port: number;
  tls: SmtpTlsMode;
  user: string | null;
  /** Plain, decrypted when read; null when none is set. */
  password: string | null;
  sender: string | null;
}

/** The settings in the units the server's parts use. */
export interface EffectiveSettings {
  smtp: Omit<SmtpSettings, 'password'>;
  requireTwoFactor: boolean;
  sessionTtlSeconds: number;
  loginRateLimit: LoginRateLimit;
  auditRetentionMs: number;
  snapshotRetentionMs: number;
  resolvedAlertRetentionMs: number;
  itemExpirySweepMs: number;
}

export type SettingsConfig = Pick<
  Config,
  | 'smtp'
  | 'settingsFromEnvironment'
  | 'settingsRefreshMs'
  | 'tokenTtlSeconds'
  | 'loginRateLimit'
  | 'auditRetentionMs'
  | 'snapshotRetentionMs'
  | 'resolvedAlertRetentionMs'
  | 'itemExpirySweepMs'
>;

/** The row of each field; require_two_factor is the two-factor module's own row (011). */
const keyOf = (name: SettingName) => (name === 'require_two_factor' ? 'two_factor_required' : name);

const DEFAULT_SMTP_PORT = 587;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The settings from the environment (or the built-in defaults), in the API's units. */
function fromConfig(config: SettingsConfig): Omit<SystemSettingsValues, 'smtp_password_set'> {
  return {
    smtp_host: config.smtp.host ?? null,
    smtp_port: config.smtp.port ?? DEFAULT_SMTP_PORT,
    smtp_tls: config.smtp.tls ?? 'starttls',
    smtp_user: config.smtp.user ?? null,
    smtp_sender: config.smtp.sender ?? null,
    require_two_factor: false,
    session_lifetime_minutes: Math.round(config.tokenTtlSeconds / 60),
    sign_in_window_minutes: Math.max(1, Math.round(config.loginRateLimit.windowSeconds / 60)),
    sign_in_failures_per_email: config.loginRateLimit.maxFailuresPerEmail,
    sign_in_failures_per_address: config.loginRateLimit.maxFailuresPerAddress,
    audit_retention_days: Math.round(config.auditRetentionMs / DAY_MS),
    snapshot_retention_hours: Math.round(config.snapshotRetentionMs / HOUR_MS),
    resolved_alert_retention_days: Math.round(config.resolvedAlertRetentionMs / DAY_MS),
    expiry_sweep_seconds: Math.round(config.itemExpirySweepMs / 1000),
  };
}

/** A stored value, if it still has the type its field has (a hand-edited row is ignored, not trusted). */
function storedValue(defaults: Record<string, unknown>, name: string, value: unknown): unknown {
  const fallback = defaults[name];
  if (name === 'smtp_tls') return SMTP_TLS_MODES.includes(value as SmtpTlsMode) ? value : fallback;
  if (value === null) return fallback === null || typeof fallback === 'string' ? null : fallback;
  if (typeof fallback === 'number') return Number.isInteger(value) ? value : fallback;
  if (typeof fallback === 'boolean') return typeof value === 'boolean' ? value : fallback;
  return typeof value === 'string' ? value : fallback;
}

interface Loaded {
  version: number;
  values: SystemSettingsValues;
  /** The stored password, encrypted (TokenCipher); the environment's wins over it. */
  passwordCipher: string | null;
  updatedAt: Date | null;
  effective: EffectiveSettings;
}

/**
 * System Setting: the settings an administrator changes, kept in the database and applied by every
 * server process without a restart. Each process keeps them in memory (read without waiting by the
 * parts that use them: `current()`) and checks the version row every `settingsRefreshMs`, reloading
 * only when it moved; a change made here applies here at once. An environment variable, where set,
 * wins over the stored value (and cannot be changed here: the page says so).
 */
export class SystemSettings {
  private readonly repository: SystemSettingsRepository;
  private readonly refresher: PeriodicSweep;
  private loaded: Loaded;
  private readonly listeners: ((settings: EffectiveSettings) => void)[] = [];
  /** Writes require_two_factor through the two-factor module, whose gate keeps its own answer. */
  private writeTwoFactorRequired: ((required: boolean) => Promise<void>) | undefined;

  constructor(
    db: Queryable,
    private readonly config: SettingsConfig,
    private readonly cipher: TokenCipher,
    private readonly onError: (err: unknown) => void,
  ) {
    this.repository = new SystemSettingsRepository(db);
    this.refresher = new PeriodicSweep(() => this.refresh(), config.settingsRefreshMs, onError);
    this.loaded = this.build(-1, []);
  }

  /** Reads the stored settings, then checks for changes every `settingsRefreshMs`. */
  async start(): Promise<void> {
    // A database down at start does not keep the server from starting (it answers 503 meanwhile): the
    // environment's and the defaults' settings apply until a later check reads the stored ones.
    await this.refresh().catch(this.onError);
    this.refresher.start();
  }

  stop(): Promise<void> {
    return this.refresher.stop();
  }

  /** The two-factor module's write of its requirement (it is built after the settings, which it reads). */
  setTwoFactorRequired(write: (required: boolean) => Promise<void>): void {
    this.writeTwoFactorRequired = write;
  }

  /** Called with the new settings whenever they change (at the first read too). */
  onChange(listener: (settings: EffectiveSettings) => void): void {
    this.listeners.push(listener);
  }

  /** The settings as they apply now, without waiting. */
  current(): EffectiveSettings {
    return this.loaded.effective;
  }

  /** The outgoing e-mail's settings with the password decrypted. */
  smtp(): SmtpSettings {
    const { effective, passwordCipher } = this.loaded;
    const password =
      this.config.smtp.password ?? (passwordCipher === null ? null : this.cipher.decrypt(passwordCipher));
    return { ...effective.smtp, password };
  }

  view(): SystemSettingsView {
    return {
      values: this.loaded.values,
      from_environment: this.config.settingsFromEnvironment,
      updated_at: this.loaded.updatedAt?.toISOString() ?? null,
    };
  }

  /** Reloads when another process (or this one) wrote since the last read. */
  async refresh(): Promise<void> {
    const version = await this.repository.version();
    if (version === this.loaded.version) return;
    const { version: read, rows } = await this.repository.all();
    this.loaded = this.build(read, rows);
    for (const listener of this.listeners) listener(this.loaded.effective);
  }

  async update(changes: SystemSettingsUpdate): Promise<SystemSettingsView> {
    const pinned = (Object.keys(changes) as SettingName[]).filter(
      (name) => this.config.settingsFromEnvironment[name] !== undefined,
    );
    if (pinned.length > 0) {
      const message = pinned
        .map(
          (name) =>
            `${SETTING_LABELS[name]} is set by the environment variable ${this.config.settingsFromEnvironment[name]}: change it there.`,
        )
        .join(' ');
      throw new AppError('BAD_REQUEST', message, {
        errors: pinned.map((name) => ({ message, field: name })),
      });
    }
    const { smtp_password: password, require_two_factor: requireTwoFactor, ...rest } = changes;
    const values: Record<string, unknown> = { ...rest };
    if (requireTwoFactor !== undefined && !this.writeTwoFactorRequired)
      values[keyOf('require_two_factor')] = requireTwoFactor;
    if (password !== undefined)
      values.smtp_password = password === null || password === '' ? null : this.cipher.encrypt(password);
    await this.repository.save(values);
    // Through the two-factor module, whose gate keeps its own answer (a new version too).
    if (requireTwoFactor !== undefined && this.writeTwoFactorRequired)
      await this.writeTwoFactorRequired(requireTwoFactor);
    await this.refresh();
    return this.view();
  }

  private build(version: number, rows: StoredSetting[]): Loaded {
    const defaults = fromConfig(this.config);
    const stored = new Map(rows.map((row) => [row.key, row]));
    const env = this.config.settingsFromEnvironment;
    const values = { ...defaults } as Record<string, unknown>;
    for (const name of Object.keys(defaults) as SettingName[]) {
      const row = stored.get(keyOf(name));
      if (row && env[name] === undefined) values[name] = storedValue(defaults, name, row.value);
    }
    const passwordRow = stored.get('smtp_password');
    const passwordCipher = typeof passwordRow?.value === 'string' ? passwordRow.value : null;
    const settings = values as Omit<SystemSettingsValues, 'smtp_password_set'>;
    const updatedAt = rows.reduce<Date | null>(
      (latest, row) => (latest === null || row.updatedAt > latest ? row.updatedAt : latest),
      null,
    );
    return {
      version,
      values: {
        ...settings,
        smtp_password_set: this.config.smtp.password !== undefined || passwordCipher !== null,
      },
      passwordCipher,
      updatedAt,
      effective: this.effective(settings),
    };
  }

  /** In the server's units; a field the environment sets keeps its exact value (seconds, not minutes). */
  private effective(values: Omit<SystemSettingsValues, 'smtp_password_set'>): EffectiveSettings {
    const config = this.config;
    const env = config.settingsFromEnvironment;
    const pick = (name: SettingName, exact: number, stored: number) =>
      env[name] !== undefined ? exact : stored;
    return {
      smtp: {
        host: values.smtp_host,
        port: values.smtp_port,
        tls: values.smtp_tls,
        user: values.smtp_user,
        sender: values.smtp_sender,
      },
      requireTwoFactor: values.require_two_factor,
      sessionTtlSeconds: pick(
        'session_lifetime_minutes',
        config.tokenTtlSeconds,
        values.session_lifetime_minutes * 60,
      ),
      loginRateLimit: {
        windowSeconds: pick(
          'sign_in_window_minutes',
          config.loginRateLimit.windowSeconds,
          values.sign_in_window_minutes * 60,
        ),
        maxFailuresPerEmail: values.sign_in_failures_per_email,
        maxFailuresPerAddress: values.sign_in_failures_per_address,
      },
      auditRetentionMs: pick(
        'audit_retention_days',
        config.auditRetentionMs,
        values.audit_retention_days * DAY_MS,
      ),
      snapshotRetentionMs: pick(
        'snapshot_retention_hours',
        config.snapshotRetentionMs,
        values.snapshot_retention_hours * HOUR_MS,
      ),
      resolvedAlertRetentionMs: pick(
        'resolved_alert_retention_days',
        config.resolvedAlertRetentionMs,
        values.resolved_alert_retention_days * DAY_MS,
      ),
      itemExpirySweepMs: pick(
        'expiry_sweep_seconds',
        config.itemExpirySweepMs,
        values.expiry_sweep_seconds * 1000,
      ),
    };
  }
}
