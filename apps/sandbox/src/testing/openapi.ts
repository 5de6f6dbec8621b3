/**
 * Validates the sandbox's answers against Cloudflare's OpenAPI subset (a copy of the project brief's
 * shared/cloudflare/openapi-subset.json, kept in apps/sandbox/openapi so a clean clone has it), with Ajv.
 * Test-only: the sandbox itself never validates at runtime.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

const OPENAPI_FILE = fileURLToPath(new URL('../../openapi/openapi-subset.json', import.meta.url));
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * OpenAPI 3.0 has no `null` type: Cloudflare's document marks failure results as `enum: [null]`, often
 * without `nullable` (e.g. `type: array, enum: [null]`), which strict JSON Schema can never satisfy.
 * A schema whose enum is exactly [null] is read as "the value is null", which is what it means.
 */
function normalize(node: Json): Json {
  if (Array.isArray(node)) return node.map(normalize);
  if (node === null || typeof node !== 'object') return node;
  const enumValues = node.enum;
  if (Array.isArray(enumValues) && enumValues.length === 1 && enumValues[0] === null) return { enum: [null] };
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === 'example' ? value : normalize(value);
  return out;
}

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  literalSegments: number;
  responses: Record<string, unknown>;
}

const pointer = (...segments: string[]) =>
  segments
    .map((segment) => encodeURIComponent(segment.replaceAll('~', '~0').replaceAll('/', '~1')))
    .join('/');

export class OpenApiValidator {
  private readonly ajv: Ajv;
  private readonly operations: Operation[] = [];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(file = OPENAPI_FILE) {
    const document = normalize(JSON.parse(readFileSync(file, 'utf8')) as Json) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    this.ajv = new Ajv({ strict: false, allErrors: true });
    // ajv-formats is CommonJS; its default export arrives wrapped under ESM.
    const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
      addFormatsModule) as unknown as (ajv: Ajv) => void;
    addFormats(this.ajv);
    this.ajv.addSchema(document as object, 'cloudflare');
    for (const [template, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation) continue;
        const segments = template.split('/');
        this.operations.push({
          method: method.toUpperCase(),
          template,
          pattern: new RegExp(`^${segments.map((s) => (s.startsWith('{') ? '[^/]+' : s)).join('/')}$`),
          literalSegments: segments.filter((s) => !s.startsWith('{')).length,
          responses: operation.responses,
        });
      }
    }
  }

  /** Every documented operation as `METHOD /template`. */
  operationKeys(): string[] {
    return this.operations.map((operation) => `${operation.method} ${operation.template}`);
  }

  /** The documented operation a concrete request path (after /client/v4) belongs to. */
  findOperation(method: string, path: string): Operation | undefined {
    return this.operations
      .filter((operation) => operation.method === method.toUpperCase() && operation.pattern.test(path))
      .sort((a, b) => b.literalSegments - a.literalSegments)[0];
  }

  /** The response key that documents a status: exact, then `4XX`-style, then `default`. */
  private responseKey(operation: Operation, status: number): string | undefined {
    const keys = [String(status), `${String(status)[0]}XX`, 'default'];
    return keys.find((key) => key in operation.responses);
  }

  /** Errors of a response against the document (empty when it conforms). */
  validate(
    method: string,
    path: string,
    status: number,
    body: unknown,
  ): { operation: string; errors: string[] } {
    const operation = this.findOperation(method, path);
    if (!operation)
      return { operation: `${method} ${path}`, errors: ['no such operation in the OpenAPI document'] };
    const key = `${operation.method} ${operation.template}`;
    const responseKey = this.responseKey(operation, status);
    if (!responseKey) return { operation: key, errors: [`status ${status} is not documented`] };
    const cacheKey = `${key} ${responseKey}`;
    let validate = this.validators.get(cacheKey);
    if (!validate) {
      // A response may itself be a $ref to components/responses (the rulesets operations do that).
      const response = operation.responses[responseKey] as { $ref?: string };
      const base = response.$ref
        ? response.$ref.slice(1)
        : `/${pointer('paths', operation.template, operation.method.toLowerCase(), 'responses', responseKey)}`;
      const ref = `cloudflare#${base}/${pointer('content', 'application/json', 'schema')}`;
      validate = this.ajv.compile({ $ref: ref });
      this.validators.set(cacheKey, validate);
    }
    if (validate(body)) return { operation: key, errors: [] };
    return {
      operation: key,
      errors: (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`),
    };
  }
}
