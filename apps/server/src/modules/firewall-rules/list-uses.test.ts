import { describe, expect, it } from 'vitest';
import type { CustomRule } from './custom-rules';
import { listPurposesOf } from './list-uses';

const rule = (action: string, expression: string, enabled = true): CustomRule => ({
  id: `${action}-${expression}`,
  action,
  expression,
  enabled,
});

describe('what rules say of the lists they use', () => {
  it('blocking or challenging a list makes it a blocklist; skipping for it an allowlist', () => {
    expect(
      listPurposesOf([
        rule('block', 'ip.src in $bad_bots'),
        rule('managed_challenge', '(ip.src in $suspects and http.host eq "a.example")'),
        rule('skip', 'ip.src in $partners'),
      ]),
    ).toEqual(
      new Map([
        ['bad_bots', 'block'],
        ['suspects', 'block'],
        ['partners', 'allow'],
      ]),
    );
  });

  it('reads a negated test the other way round: blocking all but a list makes it an allowlist', () => {
    expect(
      listPurposesOf([rule('block', 'not ip.src in $office'), rule('skip', '!(ip.src in $blocked)')]),
    ).toEqual(
      new Map([
        ['office', 'allow'],
        ['blocked', 'block'],
      ]),
    );
  });

  it("reads a negation written with not and parentheses, and lists of any kind (ASNs, hostnames), not Cloudflare's managed lists", () => {
    expect(
      listPurposesOf([
        rule('block', 'not (ip.src in $office)'),
        rule('skip', 'not(ip.src in $scanners)'),
        rule('managed_challenge', 'ip.src.asnum in $bad_asns'),
        rule('skip', '(http.host in $partner_hosts)'),
        rule('block', 'ip.src in $cf.open_proxies'),
      ]),
    ).toEqual(
      new Map([
        ['office', 'allow'],
        ['scanners', 'block'],
        ['bad_asns', 'block'],
        ['partner_hosts', 'allow'],
      ]),
    );
  });

  it('says nothing of a list the rules disagree on, of logging rules, or of disabled ones', () => {
    expect(
      listPurposesOf([
        rule('block', 'ip.src in $mixed'),
        rule('skip', 'ip.src in $mixed'),
        rule('log', 'ip.src in $watched'),
        rule('block', 'ip.src in $paused', false),
      ]),
    ).toEqual(new Map([['mixed', null]]));
  });
});
