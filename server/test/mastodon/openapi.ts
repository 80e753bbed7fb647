/**
 * Checks answers of Pipit's Mastodon API against the community OpenAPI description of the Mastodon
 * API (test/fixtures/mastodon-openapi: its source and licences). Every response a Mastodon test sees
 * goes through `expectValid`: 0 violations.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect, vi } from 'vitest';
import type { App } from '../../src/app.ts';
import { inject } from '../helpers/app.ts';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
type Doc = { paths: Record<string, Record<string, Operation>> };

const doc = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../fixtures/mastodon-openapi/mastodon-openapi.json'), 'utf8'),
) as Doc;

// Mastodon answers "" (not a URI) for a PreviewCard's author_url, provider_url and embed_url when it has none
// (its serializer's defaults; every Open Graph card): its apps read "" as absent. Taken as Mastodon answers it.
{
  const card = (doc as unknown as { components: { schemas: Record<string, { properties: Record<string, object> }> } })
    .components.schemas.PreviewCard;
  for (const field of ['author_url', 'provider_url', 'embed_url']) {
    const declared = card?.properties[field];
    if (card && declared) card.properties[field] = { anyOf: [declared, { const: '' }] };
  }
}

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
/** Answers the description declares without a schema where Mastodon answers `{}`. */
const EMPTY_ANSWERS = new Set([
  'POST /api/v1/notifications/clear 200',
  'POST /api/v1/notifications/{id}/dismiss 200',
  'POST /api/v2/notifications/{group_key}/dismiss 200',
  'POST /oauth/revoke 200',
  'DELETE /api/v1/lists/{id} 200',
  'POST /api/v1/lists/{id}/accounts 200',
  'DELETE /api/v1/lists/{id}/accounts 200',
  'DELETE /api/v1/scheduled_statuses/{id} 200',
  'DELETE /api/v1/push/subscription 200',
]);

/** The validator of `method path` answering `status` (the path as the description writes it, e.g. /api/v1/statuses/{id}). */
function validatorFor(method: string, template: string, status: number): ValidateFunction {
  const key = `${method} ${template} ${status}`;
  let validate = compiled.get(key);
  if (!validate) {
    const operation = doc.paths[template]?.[method.toLowerCase()];
    const named = NAMED[key];
    const schema =
      operation?.responses[String(status)]?.content?.['application/json']?.schema ??
      (named ? { $ref: `#/components/schemas/${named}` } : undefined) ??
      // An error the description does not list for this operation is still Mastodon's Error entity.
      (status >= 400 && operation ? { $ref: '#/components/schemas/Error' } : undefined) ??
      // A success it describes without a body where Mastodon answers an empty object (dismiss, clear).
      (EMPTY_ANSWERS.has(key) ? { type: 'object', maxProperties: 0 } : undefined);
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

/** Mastodon paths the description lacks: the old name of trends/tags; the WebSocket endpoint (a plain GET is refused). */
const NOT_IN_DESCRIPTION = new Set(['/api/v1/trends', '/api/v1/streaming']);
/**
 * Where the description is wrong: GET /api/v1/filters declares one filter, Mastodon answers a list;
 * DELETE /api/v1/conversations/:id declares no body, Mastodon answers `{}` (its tests check it).
 */
const WRONG_IN_DESCRIPTION = new Set(['GET /api/v1/filters', 'DELETE /api/v1/conversations/{id}']);
const isMastodonPath = (path: string) =>
  /^\/api\/v[12]\//.test(path) ||
  path.startsWith('/oauth/') ||
  path.startsWith('/.well-known/oauth-authorization-server');

/**
 * Injects a request and, when it is one of the Mastodon API's (or OAuth's), validates its answer —
 * whatever its status — against the description (a JSON answer; other bodies are the caller's to
 * check). Every Mastodon test calls through this (or masto.js with its fetch recorded), so no answer
 * escapes the check; a path the description lacks must be listed above, or the test fails.
 */
export async function mastodonCall(app: App, options: InjectOptions): Promise<LightMyRequestResponse> {
  const res = await inject(app, options);
  const path = new URL(String(options.url), 'http://x').pathname;
  const method = String(options.method ?? 'GET').toUpperCase();
  if (!isMastodonPath(path) || NOT_IN_DESCRIPTION.has(path)) return res;
  const template = templateOf(path);
  if (WRONG_IN_DESCRIPTION.has(`${method} ${template}`)) return res;
  // A method the description has no operation for (a preflight's OPTIONS): it has nothing to say of it.
  if (!doc.paths[template]?.[method.toLowerCase()]) return res;
  if (String(res.headers['content-type'] ?? '').includes('application/json')) {
    expectValid(method, template, res.statusCode, res.json());
  }
  return res;
}

const entities = new Map<string, ValidateFunction>();

/** Fails the test with every violation of `value` against the description's entity `name` (a streamed payload, say). */
export function expectEntity(name: string, value: unknown): void {
  let validate = entities.get(name);
  if (!validate) {
    validate = ajv.compile(rebased({ $ref: `#/components/schemas/${name}` }) as object);
    entities.set(name, validate);
  }
  const ok = validate(value);
  const problems = ok
    ? []
    : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} (${e.schemaPath})`);
  expect(problems, name).toEqual([]);
}

/** An answer a client library received over HTTP (recordJsonAnswers). */
export interface SeenAnswer {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

/**
 * Records into `seen` every JSON answer from `origin` that code in this test receives through the
 * global fetch (a client library such as masto.js), to check them against the description after; the
 * requests themselves go through unchanged. Undo with `vi.restoreAllMocks()`.
 */
export function recordJsonAnswers(origin: string, seen: SeenAnswer[]): void {
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const response = await realFetch(request);
    const url = new URL(request.url);
    if (url.origin === origin && response.headers.get('content-type')?.includes('json')) {
      seen.push({
        method: request.method,
        path: url.pathname,
        status: response.status,
        body: await response.clone().json(),
      });
    }
    return response;
  });
}
