import { describe, expect, it } from 'vitest';
import { PAGE_RULE_SETTINGS, pageRuleSetting } from '@guardian/contract';
import {
  defaultSettingValue,
  describePageRuleAction,
  offeredSettings,
  securityLevelWarning,
} from './page-rule-editor';

const ids = (settings: { id: string }[]) => settings.map((setting) => setting.id);

describe('offeredSettings', () => {
  it('offers the whole catalogue to an empty rule', () => {
    expect(ids(offeredSettings([]))).toEqual(ids([...PAGE_RULE_SETTINGS]));
  });

  it('offers nothing once the first setting is the exclusive redirect', () => {
    expect(offeredSettings([{ id: 'forwarding_url', value: { status_code: 301, url: '' } }])).toEqual([]);
  });

  it("offers only the first setting's group, each setting once", () => {
    const offered = offeredSettings([
      { id: 'cache_level', value: 'bypass' },
      { id: 'browser_cache_ttl', value: 0 },
    ]);
    expect(ids(offered)).toEqual([
      'edge_cache_ttl',
      'cache_deception_armor',
      'cache_by_device_type',
      'explicit_cache_control',
      'sort_query_string_for_cache',
    ]);
    expect(offered.every((setting) => setting.group === 'cache')).toBe(true);
  });

  it('never offers the redirect to a rule that already has another group', () => {
    expect(ids(offeredSettings([{ id: 'waf', value: 'on' }]))).not.toContain('forwarding_url');
  });

  it('follows the new first setting after the first one is removed', () => {
    expect(
      offeredSettings([{ id: 'host_header_override', value: '' }]).map((setting) => setting.group),
    ).toEqual(['header']);
  });
});

describe('defaultSettingValue', () => {
  it.each([
    ['ssl', 'off'],
    ['browser_cache_ttl', 0],
    ['cache_level', 'bypass'],
    ['security_level', 'high'],
    ['always_use_https', 'on'],
    ['disable_apps', 'on'],
    ['edge_cache_ttl', ''],
    ['host_header_override', ''],
    ['forwarding_url', { status_code: 301, url: '' }],
  ])('%s starts as %j', (id, value) => {
    expect(defaultSettingValue(pageRuleSetting(id)!)).toEqual(value);
  });
});

// Issue 35 item 12: Security Level started at Essentially Off, quietly turning security off.
describe('the Security Level setting', () => {
  const securityLevel = pageRuleSetting('security_level')!;

  it("starts at the zone's own level, or High when it is unknown or not offered", () => {
    expect(defaultSettingValue(securityLevel, 'medium')).toBe('medium');
    expect(defaultSettingValue(securityLevel, 'under_attack')).toBe('under_attack');
    expect(defaultSettingValue(securityLevel, null)).toBe('high');
    expect(defaultSettingValue(securityLevel)).toBe('high');
    expect(defaultSettingValue(securityLevel, 'off')).toBe('high');
  });

  it("warns when the rule's level is below the zone's", () => {
    const at = (value: string) => ({ id: 'security_level', value });
    expect(securityLevelWarning(at('essentially_off'), 'high')).toBe(
      "Essentially Off lowers security for the URLs this rule matches: the zone's Security Level is High.",
    );
    expect(securityLevelWarning(at('medium'), 'under_attack')).toBe(
      "Medium lowers security for the URLs this rule matches: the zone's Security Level is I'm Under Attack.",
    );
    expect(securityLevelWarning(at('high'), 'high')).toBeNull();
    expect(securityLevelWarning(at('under_attack'), 'high')).toBeNull();
    expect(securityLevelWarning(at('low'), 'off')).toBeNull();
  });

  it("warns below Cloudflare's default, Medium, when the zone's level is unknown", () => {
    expect(securityLevelWarning({ id: 'security_level', value: 'low' }, null)).toBe(
      "Low lowers security for the URLs this rule matches, below Cloudflare's default (Medium).",
    );
    expect(securityLevelWarning({ id: 'security_level', value: 'medium' }, undefined)).toBeNull();
  });

  it('says nothing of other settings', () => {
    expect(securityLevelWarning({ id: 'ssl', value: 'off' }, 'high')).toBeNull();
  });
});

describe('describePageRuleAction', () => {
  it("spells out forwarding and names other settings by the catalogue's labels, with their value", () => {
    expect(
      describePageRuleAction({
        id: 'forwarding_url',
        value: { status_code: 302, url: 'https://example.com/$1' },
      }),
    ).toBe('Forwarding URL (302) to https://example.com/$1');
    expect(describePageRuleAction({ id: 'browser_cache_ttl', value: 14400 })).toBe(
      'Browser Cache TTL: 4 hours',
    );
    expect(describePageRuleAction({ id: 'cache_level', value: 'bypass' })).toBe('Cache Level: Bypass');
    expect(describePageRuleAction({ id: 'security_level', value: 'under_attack' })).toBe(
      "Security Level: I'm Under Attack",
    );
    expect(describePageRuleAction({ id: 'always_use_https' })).toBe('Always Use HTTPS');
    expect(describePageRuleAction({ id: 'email_obfuscation', value: 'off' })).toBe('Email Obfuscation: Off');
    expect(describePageRuleAction({ id: 'edge_cache_ttl', value: 7200 })).toBe(
      'Edge Cache TTL (seconds): 7200',
    );
    expect(describePageRuleAction({ id: 'host_header_override', value: 'origin.example.com' })).toBe(
      'Host Header Override: origin.example.com',
    );
  });

  it('words a value Cloudflare accepts that the editor does not offer, and a setting made elsewhere', () => {
    expect(describePageRuleAction({ id: 'cache_level', value: 'simplified' })).toBe(
      'Cache Level: Simplified',
    );
    expect(describePageRuleAction({ id: 'cache_on_cookie', value: 'session_id' })).toBe(
      'Cache On Cookie: session_id',
    );
  });
});
