/**
 * Checks answers of Pipit's Mastodon API against the community OpenAPI description of the Mastodon
 * API (test/fixtures/mastodon-openapi: its source and licences). Every response a Mastodon test sees
 * goes through `expectValid`: 0 violations.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
type Doc = { paths: Record<string, Record<string, Operation>> };

const doc = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../fixtures/mastodon-openapi/mastodon-openapi.json'), 'utf8'),
) as Doc;

// The description's schemas are JSON Schema 2020-12 (OpenAPI 3.1); its own keywords are not ours to check.
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats.default(ajv);
// The description's own format for language codes.
ajv.addFormat('iso-639-1', /^[a-z]{2}$/);
ajv.addSchema({ $id: 'mastodon', components: (doc as unknown as { components: unknown }).components });

/** The schema with its `#/components/…` references pointed at the document added above. */
function rebased(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebased);
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(
      Object.entries(schema).map(([key, value]) => [
        key,
        key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `mastodon${value}` : rebased(value),
      ]),
    );
  }
  return schema;
}

const compiled = new Map<string, ValidateFunction>();

/** Answers the description declares without a schema, and the entity its text names. */
const NAMED: Record<string, string> = { 'GET /api/v1/preferences 200': 'Preferences' };

/** The validator of `method path` answering `status` (the path as the description writes it, e.g. /api/v1/statuses/{id}). */
function validatorFor(method: string, template: string, status: number): ValidateFunction {
  const key = `${method} ${template} ${status}`;
  let validate = compiled.get(key);
  if (!validate) {
    const operation = doc.paths[template]?.[method.toLowerCase()];
    const named = NAMED[key];
    const schema =
      operation?.responses[String(status)]?.content?.['application/json']?.schema ??
      (named ? { $ref: `#/components/schemas/${named}` } : undefined);
    if (!schema) throw new Error(`the description has no JSON answer for ${key}`);
    validate = ajv.compile(rebased(schema) as object);
    compiled.set(key, validate);
  }
  return validate;
}

/** Fails the test with every violation of the answer against the description. */
export function expectValid(method: string, template: string, status: number, body: unknown): void {
  const validate = validatorFor(method, template, status);
  const ok = validate(body);
  const problems = ok
    ? []
    : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} (${e.schemaPath})`);
  expect(problems, `${method} ${template} → ${status}`).toEqual([]);
}

const templates = Object.keys(doc.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  // A literal segment wins over a parameter (/api/v1/accounts/verify_credentials over /api/v1/accounts/{id}).
  params: (template.match(/\{/g) ?? []).length,
}));

/** The description's path template of a request path (e.g. /api/v1/statuses/5 → /api/v1/statuses/{id}). */
export function templateOf(requestPath: string): string {
  const found = templates.filter((t) => t.pattern.test(requestPath)).sort((a, b) => a.params - b.params)[0];
  if (!found) throw new Error(`the description has no path for ${requestPath}`);
  return found.template;
}
