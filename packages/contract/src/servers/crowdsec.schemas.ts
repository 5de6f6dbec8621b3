import { z } from 'zod';

/**
 * CrowdSec as a bouncer (issue 39): Guardian reads a CrowdSec Local API's decisions stream with a
 * bouncer key, for a server of integration "crowdsec", and mirrors its ban decisions into the
 * server's group's lists.
 */

/** How often a bouncer pulls unless told otherwise, and the bounds a person may set. */
export const CROWDSEC_PULL_SECONDS_DEFAULT = 60;
export const CROWDSEC_PULL_SECONDS_MIN = 10;
export const CROWDSEC_PULL_SECONDS_MAX = 3_600;
export const CROWDSEC_URL_MAX = 300;

export const crowdsecSourceRequestSchema = z.object({
  /** The Local API's address, as a bouncer reaches it: `http://127.0.0.1:8080`. */
  lapi_url: z
    .string({ error: 'Enter the address of the CrowdSec Local API.' })
    .trim()
    .min(1, 'Enter the address of the CrowdSec Local API.')
    .max(CROWDSEC_URL_MAX, `The address must be at most ${CROWDSEC_URL_MAX} characters.`)
    .refine(
      (text) => {
        try {
          const url = new URL(text);
          return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
        } catch {
          return false;
        }
      },
      { error: 'The address must be an http:// or https:// URL without a user name or password.' },
    ),
  /** The key `cscli bouncers add` printed; kept encrypted, never shown again. */
  bouncer_key: z
    .string({ error: 'Enter the bouncer key that cscli bouncers add printed.' })
    .trim()
    .min(1, 'Enter the bouncer key that cscli bouncers add printed.')
    .min(16, 'The bouncer key is at least 16 characters (cscli bouncers add prints it).')
    .max(256, 'The bouncer key must be at most 256 characters.')
    .regex(/^[\x21-\x7e]+$/, 'The bouncer key holds only printable characters without spaces.'),
  pull_interval_seconds: z
    .number({ error: 'The interval must be a number of seconds.' })
    .int('The interval must be a whole number of seconds.')
    .min(CROWDSEC_PULL_SECONDS_MIN, `The interval must be at least ${CROWDSEC_PULL_SECONDS_MIN} seconds.`)
    .max(CROWDSEC_PULL_SECONDS_MAX, `The interval must be at most ${CROWDSEC_PULL_SECONDS_MAX} seconds.`)
    .default(CROWDSEC_PULL_SECONDS_DEFAULT),
});
export type CrowdsecSourceRequest = z.input<typeof crowdsecSourceRequestSchema>;

/** A CrowdSec server of the person's and its Local API, as the Integrations screen shows it. */
export const crowdsecSourceSchema = z.object({
  server_id: z.number().int(),
  server_name: z.string(),
  group_name: z.string(),
  revoked: z.boolean(),
  /** Null until the person connects it to a Local API. */
  lapi_url: z.string().nullable(),
  key_last_four: z.string().nullable(),
  pull_interval_seconds: z.number().nullable(),
  /** The last pull tried, and the last that succeeded. */
  last_pull_at: z.string().nullable(),
  last_success_at: z.string().nullable(),
  /** Ban decisions now in the group's lists (taken by the policy, not yet deleted or expired). */
  mirrored: z.number(),
  /** Decisions the policy refused (allowlist, ceiling, an address Cloudflare does not take). */
  refused: z.number(),
  /** Decisions read but not yet handed to the lists. */
  pending: z.number(),
  /** Why the last pull failed (null once one succeeds). */
  last_error: z.string().nullable(),
});
export type CrowdsecSource = z.infer<typeof crowdsecSourceSchema>;

/** What one pull did. */
export const crowdsecPullResultSchema = z.object({
  /** Ban decisions the stream announced, and removed ones (deleted or expired). */
  received: z.number(),
  removed: z.number(),
  /** Handed to the lists, refused by the group's policy, unbanned. */
  mirrored: z.number(),
  refused: z.number(),
  unbanned: z.number(),
  /** Entries skipped: not a ban, another scope, or malformed. */
  skipped: z.number(),
});
export type CrowdsecPullResult = z.infer<typeof crowdsecPullResultSchema>;
