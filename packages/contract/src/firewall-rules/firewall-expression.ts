import { z } from 'zod';

/**
 * A validator of rule expressions in Cloudflare's Rules language (wirefilter), used before an
 * expression goes to Cloudflare: by the firewall rule dialog, the server and the Cloudflare sandbox.
 * It reads the whole grammar (a tokenizer and a recursive-descent parser, after wirefilter's own):
 *
 *   expression  := xor-expr (('or' | '||') xor-expr)*
 *   xor-expr    := and-expr (('xor' | '^^') and-expr)*
 *   and-expr    := unary (('and' | '&&') unary)*
 *   unary       := ('not' | '!')* ( '(' expression ')' | comparison )
 *   comparison  := operand [operator value]        (a true/false field or function stands alone)
 *   operand     := (field | function '(' [argument (',' argument)*] ')') ('[' (string | int | '*') ']')*
 *   value       := string | number | IP | CIDR | bytes | '{' set items '}' | '$' list name
 *
 * with the value each operator takes (`in` a set or a list, `matches` and `wildcard` a string...),
 * known fields and functions, and the literals' own rules (string escapes, IP addresses, ranges).
 * Field types are known only as far as true/false goes: whether `http.host eq 1` makes sense stays
 * Cloudflare's judgement. No npm package parses this language (Cloudflare's parser is Rust), so it
 * is written here; its work is linear in the expression (at most 4,096 characters) and its nesting
 * is bounded, so no expression costs much time or stack.
 * Reference: https://developers.cloudflare.com/ruleset-engine/rules-language/
 */

/** A problem in an expression: what is wrong, and the 1-based character where it is. */
export interface FirewallExpressionProblem {
  reason: string;
  position: number;
}

/** Brackets and function calls nest at most this deep. */
export const FIREWALL_EXPRESSION_MAX_DEPTH = 32;

/** The WAF's true-or-false detections: known fields, and boolean ones (they stand alone). */
const WAF_DETECTIONS = [
  'cf.waf.auth_detected',
  'cf.waf.credential_check.saw_leaked_credentials',
  'cf.waf.credential_check.username_and_password_leaked',
  'cf.waf.credential_check.username_leaked',
  'cf.waf.credential_check.username_password_similar',
  'cf.waf.content_scan.has_obj',
  'cf.waf.content_scan.has_malicious_obj',
  'cf.waf.content_scan.has_failed',
];

/** The fields of the Rules language that WAF custom rules can read. */
export const FIREWALL_EXPRESSION_FIELDS: ReadonlySet<string> = new Set([
  // Request and URI
  'http.cookie',
  'http.host',
  'http.referer',
  'http.user_agent',
  'http.x_forwarded_for',
  'http.request.accepted_languages',
  'http.request.cookies',
  'http.request.full_uri',
  'http.request.headers',
  'http.request.headers.names',
  'http.request.headers.values',
  'http.request.headers.truncated',
  'http.request.method',
  'http.request.timestamp.sec',
  'http.request.timestamp.msec',
  'http.request.uri',
  'http.request.uri.args',
  'http.request.uri.args.names',
  'http.request.uri.args.values',
  'http.request.uri.path',
  'http.request.uri.path.extension',
  'http.request.uri.query',
  'http.request.version',
  'http.request.jwt.claims',
  'raw.http.request.full_uri',
  'raw.http.request.uri',
  'raw.http.request.uri.args',
  'raw.http.request.uri.args.names',
  'raw.http.request.uri.args.values',
  'raw.http.request.uri.path',
  'raw.http.request.uri.path.extension',
  'raw.http.request.uri.query',
  // Body
  'http.request.body.form',
  'http.request.body.form.names',
  'http.request.body.form.values',
  'http.request.body.mime',
  'http.request.body.multipart',
  'http.request.body.multipart.content_dispositions',
  'http.request.body.multipart.content_transfer_encodings',
  'http.request.body.multipart.content_types',
  'http.request.body.multipart.filenames',
  'http.request.body.multipart.names',
  'http.request.body.multipart.values',
  'http.request.body.raw',
  'http.request.body.size',
  'http.request.body.truncated',
  // Source address and its geography
  'ip.src',
  'ip.src.asnum',
  'ip.src.city',
  'ip.src.continent',
  'ip.src.country',
  'ip.src.is_in_european_union',
  'ip.src.lat',
  'ip.src.lon',
  'ip.src.metro_code',
  'ip.src.postal_code',
  'ip.src.region',
  'ip.src.region_code',
  'ip.src.subdivision_1_iso_code',
  'ip.src.subdivision_2_iso_code',
  'ip.src.timezone.name',
  'ip.geoip.asnum',
  'ip.geoip.continent',
  'ip.geoip.country',
  'ip.geoip.is_in_european_union',
  'ip.geoip.subdivision_1_iso_code',
  'ip.geoip.subdivision_2_iso_code',
  // TLS
  'ssl',
  'cf.tls_cipher',
  'cf.tls_version',
  'cf.tls_client_hello_length',
  'cf.tls_client_random',
  'cf.tls_client_auth.cert_presented',
  'cf.tls_client_auth.cert_verified',
  'cf.tls_client_auth.cert_revoked',
  'cf.tls_client_auth.cert_fingerprint_sha1',
  'cf.tls_client_auth.cert_fingerprint_sha256',
  'cf.tls_client_auth.cert_issuer_dn',
  'cf.tls_client_auth.cert_subject_dn',
  'cf.tls_client_auth.cert_serial',
  'cf.tls_client_auth.cert_not_before',
  'cf.tls_client_auth.cert_not_after',
  // Cloudflare's verdicts
  'cf.client.bot',
  'cf.threat_score',
  'cf.verified_bot_category',
  'cf.bot_management.score',
  'cf.bot_management.verified_bot',
  'cf.bot_management.static_resource',
  'cf.bot_management.corporate_proxy',
  'cf.bot_management.detection_ids',
  'cf.bot_management.ja3_hash',
  'cf.bot_management.ja4',
  'cf.bot_management.js_detection.passed',
  'cf.waf.score',
  'cf.waf.score.sqli',
  'cf.waf.score.xss',
  'cf.waf.score.rce',
  'cf.waf.score.class',
  ...WAF_DETECTIONS,
  'cf.waf.content_scan.num_obj',
  'cf.waf.content_scan.num_malicious_obj',
  'cf.waf.content_scan.obj_results',
  'cf.waf.content_scan.obj_sizes',
  'cf.waf.content_scan.obj_types',
  'cf.llm.prompt.detected',
  'cf.llm.prompt.injection_score',
  'cf.llm.prompt.pii_detected',
  'cf.llm.prompt.pii_categories',
  'cf.api_gateway.auth_id_present',
  'cf.api_gateway.fallthrough_detected',
  'cf.api_gateway.request_violates_schema',
  // Edge and zone
  'cf.edge.server_ip',
  'cf.edge.server_port',
  'cf.hostname.metadata',
  'cf.metal.id',
  'cf.random_seed',
  'cf.ray_id',
  'cf.timings.client_tcp_rtt_msec',
  'cf.timings.edge_msec',
  'cf.worker.upstream_zone',
  'cf.zone.name',
  'cf.zone.plan',
]);

export const FIREWALL_EXPRESSION_FUNCTIONS: ReadonlySet<string> = new Set([
  'all',
  'any',
  'bit_slice',
  'cidr',
  'cidr6',
  'concat',
  'decode_base64',
  'encode_base64',
  'ends_with',
  'has_key',
  'has_value',
  'is_timed_hmac_valid_v0',
  'join',
  'len',
  'lookup_json_integer',
  'lookup_json_string',
  'lower',
  'regex_replace',
  'remove_bytes',
  'remove_query_args',
  'sha256',
  'split',
  'starts_with',
  'substring',
  'to_string',
  'upper',
  'url_decode',
  'uuidv4',
  'wildcard_replace',
]);

/** Fields that are true or false: they stand alone (`ssl`, `not cf.client.bot`) and take no operator. */
const BOOLEAN_FIELDS: ReadonlySet<string> = new Set([
  'ssl',
  'cf.client.bot',
  'cf.bot_management.verified_bot',
  'cf.bot_management.static_resource',
  'cf.bot_management.corporate_proxy',
  'cf.bot_management.js_detection.passed',
  'ip.src.is_in_european_union',
  'ip.geoip.is_in_european_union',
  'http.request.headers.truncated',
  'http.request.body.truncated',
  'cf.tls_client_auth.cert_presented',
  'cf.tls_client_auth.cert_verified',
  'cf.tls_client_auth.cert_revoked',
  ...WAF_DETECTIONS,
  'cf.llm.prompt.detected',
  'cf.llm.prompt.pii_detected',
  'cf.api_gateway.auth_id_present',
  'cf.api_gateway.fallthrough_detected',
  'cf.api_gateway.request_violates_schema',
]);

/** Functions that answer true or false, so a call stands alone (`any(...)`, `starts_with(...)`). */
const BOOLEAN_FUNCTIONS: ReadonlySet<string> = new Set([
  'all',
  'any',
  'ends_with',
  'has_key',
  'has_value',
  'is_timed_hmac_valid_v0',
  'starts_with',
]);

const COMPARISON_WORDS: ReadonlySet<string> = new Set([
  'eq',
  'ne',
  'lt',
  'le',
  'gt',
  'ge',
  'contains',
  'matches',
  'wildcard',
  'strict',
  'in',
  'bitwise_and',
]);
const LOGICAL_WORDS: ReadonlySet<string> = new Set(['and', 'or', 'xor', 'not']);

/** Longest first, so `==` is read before `=` would be refused and `<=` before `<`. */
const SYMBOLS = [
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '^^',
  '<',
  '>',
  '~',
  '!',
  '&',
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  ',',
  '*',
];
const ORDERING = new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge', '==', '!=', '<', '<=', '>', '>=']);

/** What people type from other languages, and what the Rules language writes instead. */
const SYMBOL_HINTS: Record<string, string> = {
  '=': "'=' is not an operator: use 'eq' or '=='",
  '|': "'|' is not an operator: use 'or' or '||'",
  '^': "'^' is not an operator: use 'xor' or '^^'",
  "'": 'Strings take double quotes',
};

type TokenKind = 'word' | 'symbol' | 'string' | 'literal' | 'list' | 'end';
interface Token {
  kind: TokenKind;
  text: string;
  /** 0-based index of its first character. */
  at: number;
}

class ExpressionError extends Error {
  constructor(
    readonly reason: string,
    readonly at: number,
  ) {
    super(reason);
  }
}

const WORD = /[A-Za-z_][A-Za-z0-9_.]*/y;
/** A bare literal: numbers, ranges (80..443), IPv4/IPv6 addresses, CIDRs and bytes (0a:1b:2c). */
const LITERAL = /-?(?:0x[0-9A-Fa-f]+|[0-9A-Fa-f:./]*)/y;
/** A literal that starts with a letter: an IPv6 address or bytes, such as fe80::1 or ab:cd. */
const LETTER_LITERAL = /[0-9A-Fa-f]+:[0-9A-Fa-f:./]*/y;
const LIST_NAME = /\$[A-Za-z0-9_.]+/y;

function match(pattern: RegExp, text: string, at: number): string | null {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0] ?? null;
}

/** Where the string starting at `at` ends (the index after it); refuses what wirefilter refuses. */
function endOfString(text: string, at: number): number {
  if (text[at] === 'r') {
    let hashes = 0;
    while (text[at + 1 + hashes] === '#') hashes += 1;
    if (hashes > 255) throw new ExpressionError('A raw string takes at most 255 #', at);
    const closing = `"${'#'.repeat(hashes)}`;
    const end = text.indexOf(closing, at + 2 + hashes);
    if (end < 0) throw new ExpressionError('This string is never closed', at);
    return end + closing.length;
  }
  for (let i = at + 1; i < text.length; i++) {
    const char = text[i];
    if (char === '"') return i + 1;
    if (char !== '\\') continue;
    const escaped = text[i + 1];
    if (escaped === '"' || escaped === '\\') i += 1;
    else if (escaped === 'x' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 2, i + 4))) i += 3;
    else if (/^[0-7]{3}$/.test(text.slice(i + 1, i + 4))) i += 3;
    else if (escaped === undefined) break;
    else {
      throw new ExpressionError(
        `'\\${escaped}' is not an escape of the Rules language (use \\", \\\\, \\xHH or three octal digits)`,
        i,
      );
    }
  }
  throw new ExpressionError('This string is never closed', at);
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i] as string;
    if (/\s/.test(char)) {
      i += 1;
      continue;
    }
    if (char === '"' || (char === 'r' && /^r#*"/.test(text.slice(i, i + 258)))) {
      const end = endOfString(text, i);
      tokens.push({ kind: 'string', text: text.slice(i, end), at: i });
      i = end;
      continue;
    }
    if (char === '$') {
      const name = match(LIST_NAME, text, i);
      if (!name) throw new ExpressionError("A list name must follow '$'", i);
      tokens.push({ kind: 'list', text: name, at: i });
      i += name.length;
      continue;
    }
    const letterLiteral = /[A-Fa-f]/.test(char) ? match(LETTER_LITERAL, text, i) : null;
    if (/[0-9:]/.test(char) || (char === '-' && /[0-9]/.test(text[i + 1] ?? '')) || letterLiteral) {
      const literal = letterLiteral ?? match(LITERAL, text, i)!;
      tokens.push({ kind: 'literal', text: literal, at: i });
      i += literal.length;
      continue;
    }
    const word = match(WORD, text, i);
    if (word) {
      tokens.push({ kind: 'word', text: word, at: i });
      i += word.length;
      continue;
    }
    const symbol = SYMBOLS.find((candidate) => text.startsWith(candidate, i));
    if (symbol) {
      tokens.push({ kind: 'symbol', text: symbol, at: i });
      i += symbol.length;
      continue;
    }
    throw new ExpressionError(SYMBOL_HINTS[char] ?? `Unexpected character '${char}'`, i);
  }
  tokens.push({ kind: 'end', text: '', at: text.length });
  return tokens;
}

const isIp = (text: string) => z.ipv4().safeParse(text).success || z.ipv6().safeParse(text).success;
const isCidr = (text: string) => z.cidrv4().safeParse(text).success || z.cidrv6().safeParse(text).success;

/** Whether a bare literal is an integer (decimal, 0x hex or 0 octal) that fits Cloudflare's 64 bits. */
function isInteger(text: string): boolean {
  let value: bigint;
  if (/^0x[0-9A-Fa-f]+$/.test(text)) value = BigInt(text);
  else if (/^0[0-7]*$/.test(text)) value = BigInt(`0o${text.slice(1) || '0'}`);
  else if (/^-?[1-9][0-9]*$/.test(text)) value = BigInt(text);
  else return false;
  return value >= -(2n ** 63n) && value < 2n ** 63n;
}

const isBytes = (text: string) => /^[0-9A-Fa-f]{2}([:.-])[0-9A-Fa-f]{2}(\1[0-9A-Fa-f]{2})*$/.test(text);

/** Whether a literal is a range, as sets hold them: 80..443 or 192.0.2.1..192.0.2.9. */
function isRange(text: string): boolean {
  const parts = text.split('..');
  if (parts.length !== 2) return false;
  const [first, last] = parts as [string, string];
  if (isInteger(first) && isInteger(last)) return BigInt(first) <= BigInt(last);
  return isIp(first) && isIp(last) && first.includes(':') === last.includes(':');
}

class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  private get token(): Token {
    return this.tokens[this.index]!;
  }

  private next(): Token {
    const token = this.token;
    if (token.kind !== 'end') this.index += 1;
    return token;
  }

  private isWord(...words: string[]) {
    return this.token.kind === 'word' && words.includes(this.token.text);
  }

  private isSymbol(...symbols: string[]) {
    return this.token.kind === 'symbol' && symbols.includes(this.token.text);
  }

  private enter(at: number) {
    this.depth += 1;
    if (this.depth > FIREWALL_EXPRESSION_MAX_DEPTH) {
      throw new ExpressionError(`Brackets nest deeper than ${FIREWALL_EXPRESSION_MAX_DEPTH} levels`, at);
    }
  }

  /** The whole expression: one logical expression and nothing after it. */
  parse(): void {
    this.expression(false);
    if (this.token.kind !== 'end') {
      throw new ExpressionError(
        `Expected 'and', 'or' or the end of the expression instead of ${describe(this.token)}`,
        this.token.at,
      );
    }
  }

  /** `bare`: inside a function's arguments, where a field or a call may be a value, not a condition. */
  private expression(bare: boolean): void {
    this.xorExpression(bare);
    while (this.isWord('or') || this.isSymbol('||')) {
      this.operand(this.next(), () => this.xorExpression(bare));
    }
  }

  private xorExpression(bare: boolean): void {
    this.andExpression(bare);
    while (this.isWord('xor') || this.isSymbol('^^')) {
      this.operand(this.next(), () => this.andExpression(bare));
    }
  }

  private andExpression(bare: boolean): void {
    this.unary(bare);
    while (this.isWord('and') || this.isSymbol('&&')) {
      this.operand(this.next(), () => this.unary(bare));
    }
  }

  /** Parses what a logical operator needs after it, naming the operator when nothing follows. */
  private operand(operator: Token, parse: () => void): void {
    if (this.token.kind === 'end') {
      throw new ExpressionError(`Expected a condition after '${operator.text}'`, this.token.at);
    }
    parse();
  }

  private unary(bare: boolean): void {
    // Iterative, so `not not not ...` costs no stack.
    let negation: Token | null = null;
    while (this.isWord('not') || this.isSymbol('!')) negation = this.next();
    if (negation && this.token.kind === 'end') {
      throw new ExpressionError(`Expected a condition after '${negation.text}'`, this.token.at);
    }
    if (this.isSymbol('(')) {
      const open = this.next();
      this.enter(open.at);
      this.expression(bare);
      this.depth -= 1;
      if (!this.isSymbol(')')) {
        throw this.token.kind === 'end'
          ? new ExpressionError("This '(' is never closed", open.at)
          : new ExpressionError(`Expected ')' instead of ${describe(this.token)}`, this.token.at);
      }
      this.next();
      return;
    }
    this.comparison(bare);
  }

  private comparison(bare: boolean): void {
    const { name, isBoolean } = this.lhs();
    const operator = this.token;
    const isOperator =
      (operator.kind === 'word' && COMPARISON_WORDS.has(operator.text)) ||
      (operator.kind === 'symbol' && (ORDERING.has(operator.text) || ['~', '&'].includes(operator.text)));
    if (!isOperator) {
      if (isBoolean || bare) return;
      throw new ExpressionError(
        `Expected an operator such as 'eq', 'contains' or 'in' after '${name}'`,
        operator.at,
      );
    }
    if (isBoolean) {
      throw new ExpressionError(
        `'${name}' is true or false by itself: write '${name}' or 'not ${name}', without '${operator.text}'`,
        operator.at,
      );
    }
    this.next();
    if (operator.text === 'strict') {
      if (!this.isWord('wildcard')) {
        throw new ExpressionError("Expected 'wildcard' after 'strict'", this.token.at);
      }
      this.next();
      this.value('strict wildcard');
      return;
    }
    this.value(operator.text);
  }

  /** A field or a function call, then any `[...]` after it. */
  private lhs(): { name: string; isBoolean: boolean } {
    const token = this.token;
    if (token.kind !== 'word' || COMPARISON_WORDS.has(token.text) || LOGICAL_WORDS.has(token.text)) {
      throw new ExpressionError(
        `Expected a field such as ip.src, a function or '(' ${token.kind === 'end' ? 'here' : `instead of ${describe(token)}`}`,
        token.at,
      );
    }
    this.next();
    let isBoolean: boolean;
    if (this.isSymbol('(')) {
      if (!FIREWALL_EXPRESSION_FUNCTIONS.has(token.text)) {
        throw new ExpressionError(`Unknown function '${token.text}'`, token.at);
      }
      this.call(token);
      isBoolean = BOOLEAN_FUNCTIONS.has(token.text);
    } else {
      if (!FIREWALL_EXPRESSION_FIELDS.has(token.text)) {
        throw new ExpressionError(`Unknown field '${token.text}'`, token.at);
      }
      isBoolean = BOOLEAN_FIELDS.has(token.text);
    }
    while (this.isSymbol('[')) {
      this.next();
      const key = this.next();
      const isKey =
        key.kind === 'string' || (key.kind === 'literal' && isInteger(key.text)) || key.text === '*';
      if (!isKey) {
        throw new ExpressionError(`Expected "name", a number or * inside '[ ]'`, key.at);
      }
      if (!this.isSymbol(']')) throw new ExpressionError("Expected ']'", this.token.at);
      this.next();
    }
    return { name: token.text, isBoolean };
  }

  private call(name: Token): void {
    const open = this.next();
    this.enter(open.at);
    if (!this.isSymbol(')')) {
      for (;;) {
        const argument = this.token;
        if (argument.kind === 'string' || argument.kind === 'literal') {
          this.next();
          if (argument.kind === 'literal' && !isInteger(argument.text)) {
            throw new ExpressionError(`'${argument.text}' is not a number`, argument.at);
          }
        } else {
          this.expression(true);
        }
        if (this.isSymbol(',')) {
          this.next();
          continue;
        }
        break;
      }
    }
    if (!this.isSymbol(')')) {
      throw new ExpressionError(
        this.token.kind === 'end'
          ? `The call of '${name.text}' is never closed with ')'`
          : `Expected ',' or ')' instead of ${describe(this.token)}`,
        this.token.at,
      );
    }
    this.next();
    this.depth -= 1;
  }

  /** The value an operator takes. */
  private value(operator: string): void {
    const token = this.token;
    const missing = () =>
      new ExpressionError(
        `Expected ${expectedAfter(operator)} after '${operator}'${token.kind === 'end' ? '' : ` instead of ${describe(token)}`}`,
        token.at,
      );
    if (operator === 'in') {
      if (token.kind === 'list') {
        this.next();
        return;
      }
      if (!this.isSymbol('{')) throw missing();
      this.set();
      return;
    }
    if (operator === 'contains' && this.isSymbol('{')) {
      this.set();
      return;
    }
    if (['matches', '~', 'wildcard', 'strict wildcard'].includes(operator)) {
      if (token.kind !== 'string') throw missing();
      this.next();
      return;
    }
    if (operator === '&' || operator === 'bitwise_and') {
      if (token.kind !== 'literal' || !isInteger(token.text)) throw missing();
      this.next();
      return;
    }
    if (token.kind === 'string') {
      this.next();
      return;
    }
    if (token.kind !== 'literal') throw missing();
    this.literal(token, false);
  }

  private literal(token: Token, inSet: boolean): void {
    const text = token.text;
    const fits = isInteger(text) || isIp(text) || isCidr(text) || isBytes(text) || (inSet && isRange(text));
    if (!fits) {
      throw new ExpressionError(
        `'${text}' is not a number, an IP address or a CIDR${inSet ? ' or a range' : ''}`,
        token.at,
      );
    }
    this.next();
  }

  /** `{...}`: strings, or numbers, addresses, CIDRs and ranges, separated by spaces. */
  private set(): void {
    const open = this.next();
    let items = 0;
    while (!this.isSymbol('}')) {
      const item = this.token;
      if (item.kind === 'string') this.next();
      else if (item.kind === 'literal') this.literal(item, true);
      else if (item.kind === 'end') {
        throw new ExpressionError("This '{' is never closed", open.at);
      } else {
        throw new ExpressionError(
          item.text === ','
            ? "Values in '{ }' are separated by spaces, not commas"
            : `Expected a value or '}' instead of ${describe(item)}`,
          item.at,
        );
      }
      items += 1;
    }
    if (items === 0) throw new ExpressionError("Expected a value inside '{ }'", this.token.at);
    this.next();
  }
}

function describe(token: Token): string {
  return token.kind === 'end'
    ? 'the end of the expression'
    : `'${token.text.length > 40 ? `${token.text.slice(0, 40)}…` : token.text}'`;
}

function expectedAfter(operator: string): string {
  if (operator === 'in') return 'a set such as {1 2} or a list such as $name';
  if (['matches', '~', 'wildcard', 'strict wildcard'].includes(operator)) return 'a string in double quotes';
  if (operator === '&' || operator === 'bitwise_and') return 'a number';
  return 'a value';
}

/** The first problem of an expression, or null when the Rules language reads it. */
export function findFirewallExpressionProblem(expression: string): FirewallExpressionProblem | null {
  try {
    const tokens = tokenize(expression);
    if (tokens.length === 1) return { reason: 'The expression is empty', position: 1 };
    new Parser(tokens).parse();
    return null;
  } catch (err) {
    if (err instanceof ExpressionError) return { reason: err.reason, position: err.at + 1 };
    throw err;
  }
}

/** The problem as one sentence: "Expected a value after 'eq' at character 10." */
export function firewallExpressionMessage(problem: FirewallExpressionProblem): string {
  return `${problem.reason} at character ${problem.position}.`;
}
