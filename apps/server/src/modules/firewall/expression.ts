/**
 * A check of a rule expression in Cloudflare's Rules language before it is sent: balanced brackets,
 * closed strings, and known fields, functions and operators. It catches the usual slips with a message
 * naming the culprit; Cloudflare's own parser stays the judge of everything else.
 * Reference: https://developers.cloudflare.com/ruleset-engine/rules-language/
 */

const FIELDS: ReadonlySet<string> = new Set([
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
  'cf.waf.auth_detected',
  'cf.waf.credential_check.saw_leaked_credentials',
  'cf.waf.credential_check.username_and_password_leaked',
  'cf.waf.credential_check.username_leaked',
  'cf.waf.credential_check.username_password_similar',
  'cf.waf.content_scan.has_obj',
  'cf.waf.content_scan.has_malicious_obj',
  'cf.waf.content_scan.has_failed',
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

const FUNCTIONS: ReadonlySet<string> = new Set([
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

const WORD_OPERATORS: ReadonlySet<string> = new Set([
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
  'not',
  'and',
  'or',
  'xor',
  'true',
  'false',
]);

/** Longest first, so `<=` is read before `<`. */
const SYMBOL_OPERATORS = ['==', '!=', '<=', '>=', '&&', '||', '^^', '<', '>', '~', '!', ',', '*'];

/** What people type from other languages, and what to write instead. */
const SYMBOL_HINTS: Record<string, string> = {
  '=': '"eq" or "=="',
  '&': '"and" or "&&"',
  '|': '"or" or "||"',
  "'": 'double quotes around strings',
};

const CLOSING: Record<string, string> = { ')': '(', '}': '{', ']': '[' };

const isWordStart = (char: string) => /[A-Za-z_]/.test(char);
const isWordChar = (char: string) => /[A-Za-z0-9_.]/.test(char);
/** Digits, hex, dots, colons and slashes: numbers, ranges (80..443), IPv4/IPv6 addresses and CIDRs. */
const isLiteralChar = (char: string) => /[0-9A-Fa-f:./]/.test(char);

/** Where a string literal starting at `start` ends (index after its closing quote), or -1 if never. */
function endOfString(expression: string, start: number): number {
  // Raw strings: r"..." and r#"..."# (any number of #), no escapes inside.
  if (expression[start] === 'r') {
    let hashes = 0;
    let i = start + 1;
    while (expression[i] === '#') {
      hashes += 1;
      i += 1;
    }
    const closing = `"${'#'.repeat(hashes)}`;
    const end = expression.indexOf(closing, i + 1);
    return end < 0 ? -1 : end + closing.length;
  }
  for (let i = start + 1; i < expression.length; i++) {
    if (expression[i] === '\\') i += 1;
    else if (expression[i] === '"') return i + 1;
  }
  return -1;
}

const isRawStringStart = (expression: string, i: number) =>
  expression[i] === 'r' &&
  /^r#*"/.test(expression.slice(i, i + 260)) &&
  !isWordChar(expression[i - 1] ?? ' ');

/** The problem with an expression, in words for the person who wrote it, or null when none is seen. */
export function findExpressionProblem(expression: string): string | null {
  const open: { char: string; at: number }[] = [];
  let i = 0;
  while (i < expression.length) {
    const char = expression[i] as string;
    if (/\s/.test(char)) {
      i += 1;
    } else if (char === '"' || isRawStringStart(expression, i)) {
      const end = endOfString(expression, i);
      if (end < 0) return `The expression has a string that is never closed (opened at character ${i + 1}).`;
      i = end;
    } else if (char === '(' || char === '{' || char === '[') {
      open.push({ char, at: i });
      i += 1;
    } else if (char in CLOSING) {
      if (open.pop()?.char !== CLOSING[char]) {
        return `The expression has an unexpected "${char}" at character ${i + 1}.`;
      }
      i += 1;
    } else if (char === '$') {
      const name = /^\$[A-Za-z0-9_.]+/.exec(expression.slice(i))?.[0];
      if (!name) return `A list name must follow "$" at character ${i + 1}.`;
      i += name.length;
    } else if (/[0-9:]/.test(char)) {
      while (i < expression.length && isLiteralChar(expression[i] as string)) i += 1;
    } else if (isWordStart(char)) {
      let end = i;
      while (end < expression.length && isWordChar(expression[end] as string)) end += 1;
      const word = expression.slice(i, end);
      if (expression[end] === ':' && /^[0-9A-Fa-f]+$/.test(word)) {
        // An IPv6 address that starts with a letter (fe80::1).
        while (end < expression.length && isLiteralChar(expression[end] as string)) end += 1;
      } else if (WORD_OPERATORS.has(word)) {
        // An operator or a boolean.
      } else if (/^\s*\(/.test(expression.slice(end))) {
        if (!FUNCTIONS.has(word)) return `Unknown function "${word}" in the expression.`;
      } else if (!FIELDS.has(word)) {
        return word.includes('.')
          ? `Unknown field "${word}" in the expression.`
          : `Unknown field or operator "${word}" in the expression.`;
      }
      i = end;
    } else {
      const symbol = SYMBOL_OPERATORS.find((operator) => expression.startsWith(operator, i));
      if (!symbol) {
        const hint = SYMBOL_HINTS[char];
        return hint
          ? `Unknown operator "${char}" at character ${i + 1}: use ${hint}.`
          : `Unexpected character "${char}" at character ${i + 1} of the expression.`;
      }
      i += symbol.length;
    }
  }
  const unclosed = open.pop();
  if (unclosed)
    return `The expression has a "${unclosed.char}" that is never closed (character ${unclosed.at + 1}).`;
  return null;
}
