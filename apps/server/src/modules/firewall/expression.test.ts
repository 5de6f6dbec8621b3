import { describe, expect, it } from 'vitest';
import { findExpressionProblem } from './expression';

describe('findExpressionProblem', () => {
  it.each([
    'http.request.uri.path eq "/admin"',
    'ip.src in {192.0.2.0/24 198.51.100.7 2001:db8::/32 fe80::1}',
    'ip.src in $blocked_ips or ip.src in $cf.open_proxies',
    '(cf.client.bot) or (http.user_agent contains "curl")',
    'ip.geoip.country in {"CN" "RU"} and not cf.client.bot',
    'cf.threat_score gt 10 && http.request.method != "GET"',
    'http.host == "example.com" || ssl',
    'http.request.uri.path matches "^/api/v[0-9]+/"',
    'http.request.uri.path ~ "\\\\.php$"',
    'lower(http.request.uri.path) contains "/wp-login"',
    'any(http.request.headers["x-forwarded-for"][*] contains "10.")',
    'http.request.full_uri wildcard r"https://*.example.com/*"',
    'http.referer strict wildcard r#"https://a.example/"quoted"*"#',
    'ip.geoip.asnum in {13335 209242} xor http.request.version eq "HTTP/1.0"',
    'cf.edge.server_port in {80..443}',
    'starts_with(http.request.uri.path, "/static/") and len(http.cookie) ge 0',
    'http.user_agent eq "a \\"quoted\\" (paren"',
    '!ssl',
  ])('accepts %s', (expression) => {
    expect(findExpressionProblem(expression)).toBeNull();
  });

  it.each([
    ['ip.sauce eq 192.0.2.1', 'Unknown field "ip.sauce" in the expression.'],
    ['ip.src eq 192.0.2.1 AND ssl', 'Unknown field or operator "AND" in the expression.'],
    ['ip.src in {192.0.2.1', 'The expression has a "{" that is never closed (character 11).'],
    ['(ip.src eq 192.0.2.1]', 'The expression has an unexpected "]" at character 21.'],
    ['http.host eq "a\\"', 'The expression has a string that is never closed (opened at character 14).'],
    ["http.host eq 'a'", 'Unknown operator "\'" at character 14: use double quotes around strings.'],
    ['ssl & cf.client.bot', 'Unknown operator "&" at character 5: use "and" or "&&".'],
    ['ip.src in $', 'A list name must follow "$" at character 11.'],
    ['trim(http.host) eq "a"', 'Unknown function "trim" in the expression.'],
    ['http.host eq "a" ; ssl', 'Unexpected character ";" at character 18 of the expression.'],
  ])('refuses %s', (expression, message) => {
    expect(findExpressionProblem(expression)).toBe(message);
  });
});
