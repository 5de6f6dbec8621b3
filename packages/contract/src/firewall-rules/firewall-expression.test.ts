import { describe, expect, it } from 'vitest';
import {
  FIREWALL_EXPRESSION_MAX_DEPTH,
  findFirewallExpressionProblem,
  firewallExpressionMessage,
} from './firewall-expression';
import { firewallExpressionProblem, firewallRuleFormSchema } from './firewall-rules.schemas';

const messageOf = (expression: string) => {
  const problem = findFirewallExpressionProblem(expression);
  return problem && firewallExpressionMessage(problem);
};

describe('findFirewallExpressionProblem', () => {
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
    'cf.edge.server_port in {80..443 8080}',
    'ip.src in {192.0.2.1..192.0.2.9}',
    'starts_with(http.request.uri.path, "/static/") and len(http.cookie) ge 0',
    'http.user_agent eq "a \\"quoted\\" (paren \\x41 \\101"',
    '!ssl',
    'not not ssl',
    'ip.src eq 192.0.2.1 ^^ ssl',
    'cf.bot_management.score lt 30 and not cf.bot_management.verified_bot',
    'substring(http.request.uri.path, -5) eq ".html"',
    'lower(url_decode(http.request.uri.query)) contains "union select"',
    'http.request.uri.args["id"][0] eq "1"',
    'cf.threat_score bitwise_and 0x0f',
    'cf.threat_score & 8',
    'http.host contains {"a" "b"}',
    'ip.geoip.country ne "T1"',
    'ip.src ne 2001:db8::1',
    '((((ssl))))',
  ])('accepts %s', (expression) => {
    expect(messageOf(expression)).toBeNull();
  });

  it.each([
    // Issue 18: both were saved as Active rules.
    ['ip.src eq', "Expected a value after 'eq' at character 10."],
    ['ip.src ==== 1', "Expected a value after '==' instead of '==' at character 10."],
    ['ip.src', "Expected an operator such as 'eq', 'contains' or 'in' after 'ip.src' at character 7."],
    ['ip.src eq 192.0.2.1 and', "Expected a condition after 'and' at character 24."],
    ['not', "Expected a condition after 'not' at character 4."],
    ['and ssl', "Expected a field such as ip.src, a function or '(' instead of 'and' at character 1."],
    ['ssl ssl', "Expected 'and', 'or' or the end of the expression instead of 'ssl' at character 5."],
    ['ssl eq 1', "'ssl' is true or false by itself: write 'ssl' or 'not ssl', without 'eq' at character 5."],
    ['ip.sauce eq 192.0.2.1', "Unknown field 'ip.sauce' at character 1."],
    [
      'ip.src eq 192.0.2.1 AND ssl',
      "Expected 'and', 'or' or the end of the expression instead of 'AND' at character 21.",
    ],
    ['trim(http.host) eq "a"', "Unknown function 'trim' at character 1."],
    ['ip.src in {192.0.2.1', "This '{' is never closed at character 11."],
    ['ip.src in {}', "Expected a value inside '{ }' at character 12."],
    [
      'ip.src in {192.0.2.1, 192.0.2.2}',
      "Values in '{ }' are separated by spaces, not commas at character 21.",
    ],
    [
      'ip.src in 192.0.2.1',
      "Expected a set such as {1 2} or a list such as $name after 'in' instead of '192.0.2.1' at character 11.",
    ],
    ['ip.src eq 300.1.2.3', "'300.1.2.3' is not a number, an IP address or a CIDR at character 11."],
    ['(ip.src eq 192.0.2.1', "This '(' is never closed at character 1."],
    ['(ip.src eq 192.0.2.1]', "Expected ')' instead of ']' at character 21."],
    [
      'ip.src eq 192.0.2.1)',
      "Expected 'and', 'or' or the end of the expression instead of ')' at character 20.",
    ],
    ['http.host eq "a\\"', 'This string is never closed at character 14.'],
    [
      'http.host eq "a\\q"',
      "'\\q' is not an escape of the Rules language (use \\\", \\\\, \\xHH or three octal digits) at character 16.",
    ],
    ["http.host eq 'a'", 'Strings take double quotes at character 14.'],
    ['http.host = "a"', "'=' is not an operator: use 'eq' or '==' at character 11."],
    ['ssl | cf.client.bot', "'|' is not an operator: use 'or' or '||' at character 5."],
    ['ip.src in $', "A list name must follow '$' at character 11."],
    ['http.host eq "a" ; ssl', "Unexpected character ';' at character 18."],
    [
      'http.host matches 1',
      "Expected a string in double quotes after 'matches' instead of '1' at character 19.",
    ],
    ['http.host strict "a*"', "Expected 'wildcard' after 'strict' at character 18."],
    ['lower(http.host', "The call of 'lower' is never closed with ')' at character 16."],
    ['http.request.headers[x] eq "a"', 'Expected "name", a number or * inside \'[ ]\' at character 22.'],
    ['', 'The expression is empty at character 1.'],
  ])('refuses %s', (expression, message) => {
    expect(messageOf(expression)).toBe(message);
  });

  it('bounds the nesting, of brackets and of calls alike', () => {
    const depth = FIREWALL_EXPRESSION_MAX_DEPTH;
    expect(messageOf(`${'('.repeat(depth)}ssl${')'.repeat(depth)}`)).toBeNull();
    expect(messageOf(`${'('.repeat(depth + 1)}ssl${')'.repeat(depth + 1)}`)).toBe(
      `Brackets nest deeper than ${depth} levels at character ${depth + 1}.`,
    );
    expect(messageOf(`${'lower('.repeat(depth + 1)}http.host${')'.repeat(depth + 1)} eq "a"`)).toMatch(
      /^Brackets nest deeper than/,
    );
  });

  // Catches a reading that backtracks (it would take minutes at these lengths), not a speed: a few
  // milliseconds on a quiet machine, the bound holds on a busy one (1.4 s was seen against 500 ms).
  it('reads the longest expression Cloudflare takes without backtracking, however it is built', () => {
    const started = performance.now();
    for (const expression of [
      `${'not '.repeat(1000)}ssl`,
      `ip.src in {${'192.0.2.1 '.repeat(400)}}`,
      `${'('.repeat(2000)}`,
      `http.host eq "${'\\\\'.repeat(2000)}"`,
      Array.from({ length: 200 }, () => 'ssl').join(' and '),
    ]) {
      findFirewallExpressionProblem(expression);
    }
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('firewallRuleFormSchema', () => {
  const rule = (expression: string) => ({ description: 'd', action: 'block', filter: { expression } });

  it('marks the expression field with the problem', () => {
    const result = firewallRuleFormSchema().safeParse(rule('ip.src eq'));
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ['filter', 'expression'],
        message: "Expected a value after 'eq' at character 10.",
      }),
    ]);
  });

  it('leaves the expression Cloudflare already holds to Cloudflare, and checks a changed one', () => {
    const kept = 'cf.some_future_field eq 1';
    expect(firewallExpressionProblem(kept, kept)).toBeNull();
    expect(firewallRuleFormSchema(kept).safeParse(rule(kept)).success).toBe(true);
    expect(firewallRuleFormSchema(kept).safeParse(rule('ip.src eq')).success).toBe(false);
  });
});
