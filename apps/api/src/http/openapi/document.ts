import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { sample } from 'openapi-sampler';
import { routeProtection } from '../guards.ts';
import { declaredRefusals, statusOf, UNIVERSAL_REFUSALS, wireCodeOf, type RefusalCode } from '../refusals.ts';
import { ERROR_DESCRIPTIONS, operationDoc, routeKey, TAGS, type OperationDoc } from './operations.ts';
import { contractSchemas } from './schemas.ts';
import { storeCallbackWebhook, storeRefundCallbackWebhook } from './webhooks.ts';
import { SDK_INSTALL, sdkCreateSnippet, sdkVerifySnippet } from '@kestrel/shared';

/*
 * The API reference (`/v1/openapi.json`, `/v1/docs`). Routes carry their zod contracts; the
 * words around them — operationId, description, tags, examples, every error an operation can
 * answer, binary and multipart bodies — live in the table in operations*.ts, keyed by
 * "METHOD /url" as Fastify spells the route. The two transforms below merge them:
 *
 * - per route: zod → JSON Schema (named contracts become `$ref`s), the table's words, and
 *   what the route table knows (its guard → security, its rate limit → 429);
 * - once per document: the error answers, security, examples and media types, the declared
 *   tags, the store callback under `webhooks`, and unused components dropped; every JSON
 *   request and success answer the table gives no example for gets one composed from its
 *   schema (the contracts' field examples, see `sampleMissingExamples`).
 *
 * A route missing from the table is still documented (with defaults); openapi.test.ts fails
 * until it has its entry.
 */

// The document is plain JSON walked by key; typing every OpenAPI node would add nothing here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

interface RouteFacts {
  key: string;
  doc: OperationDoc | undefined;
  protection: ReturnType<typeof routeProtection>;
  limited: boolean;
  hasBody: boolean;
  /** The codes the route declared (`refusals(...)` in its response schema). */
  refusals: readonly RefusalCode[];
}

const zodRouteTransform = createJsonSchemaTransform({ schemaRegistry: contractSchemas });
const zodObjectTransform = createJsonSchemaTransformObject({ schemaRegistry: contractSchemas });

const openapiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const errorRef = { $ref: '#/components/schemas/Error' };

const SECURITY: Record<string, Json[]> = {
  user: [{ accessToken: [] }],
  operator: [{ accessToken: [] }],
  storeKey: [{ storeId: [], storeKey: [] }],
  storeKeyOrUser: [{ storeId: [], storeKey: [] }, { accessToken: [] }],
  public: [],
  unguarded: [{ accessToken: [] }],
};

/**
 * The statuses an operation can answer beyond what its response schema declares (the route's
 * refusals, `refusals(...)`): what its route implies.
 */
export function errorStatuses(facts: Omit<RouteFacts, 'key' | 'refusals'>): number[] {
  const statuses = new Set<number>();
  // Every route: a NUL character anywhere in the path, query or body is refused (http/hardening.ts).
  statuses.add(400);
  if (facts.hasBody) {
    statuses.add(413);
    statuses.add(415);
  }
  if (facts.protection !== 'public') statuses.add(401);
  // An operator route answers a signed-in non-operator as an unknown route would.
  if (facts.protection === 'operator') statuses.add(404);
  if (facts.limited) statuses.add(429);
  statuses.add(500);
  if (facts.doc?.database !== false) statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

export function createOpenApiOptions(publicUrl: string): FastifyDynamicSwaggerOptions {
  // Filled by the per-route transform, read by the document transform of the same build.
  const facts = new Map<string, RouteFacts>();
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Kestrel API',
        version: '1.0.0',
        description: apiDescription(publicUrl),
        license: { name: 'MIT', identifier: 'MIT' },
        contact: { name: 'Kestrel', url: publicUrl },
      },
      servers: [{ url: publicUrl, description: 'This Kestrel server' }],
      tags: [...TAGS],
      components: {
        securitySchemes: {
          accessToken: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The token from POST /v1/auth/login (raw or "Bearer <token>")' },
          storeId: { type: 'apiKey', in: 'header', name: 'storeId', description: "An Approved store's id (Integration tab)" },
          storeKey: { type: 'apiKey', in: 'header', name: 'storeKey', description: "The store's secret key (Integration tab); also the callback signing key" },
        },
      },
    },
    transform: (input) => {
      const result = zodRouteTransform(input);
      const route = input.route as RouteOptions;
      if (result.schema?.hide) return result;
      const methods = [route.method].flat().filter((method) => method !== 'HEAD');
      for (const method of methods) {
        const key = routeKey(method, route.url);
        const doc = operationDoc(key);
        const schema = route.schema as Json | undefined;
        facts.set(`${method.toLowerCase()} ${openapiPath(route.url)}`, {
          key,
          doc,
          protection: routeProtection(route),
          limited: Boolean((route.config as Json | undefined)?.rateLimit),
          hasBody: Boolean(schema?.body || doc?.multipart),
          refusals: declaredRefusals(schema?.response),
        });
        const transformed = result.schema as Json;
        transformed.operationId = doc?.operationId ?? defaultOperationId(method, route.url);
        if (doc?.summary) transformed.summary = doc.summary;
        transformed.description = doc?.description ?? transformed.description ?? transformed.summary;
        transformed.tags = [doc?.tag ?? transformed.tags?.[0] ?? 'Platform'];
      }
      return result;
    },
    transformObject: (input) => {
      const document = zodObjectTransform(input) as Json;
      for (const [pathName, operations] of Object.entries(document.paths as Record<string, Json>)) {
        for (const [method, operation] of Object.entries(operations)) {
          const routeFacts = facts.get(`${method} ${pathName}`);
          if (routeFacts) completeOperation(operation, routeFacts);
        }
      }
      document.webhooks = { storeCallback: storeCallbackWebhook, storeRefundCallback: storeRefundCallbackWebhook };
      dropUnusedComponents(document);
      dropInputSuffix(document);
      sampleMissingExamples(document);
      return document;
    },
  };
}

/** The reference's introduction (the top of /v1/docs): what is where, and the SDK snippets the Integration tab shows. */
function apiDescription(publicUrl: string): string {
  const values = { baseUrl: publicUrl, storeId: 'YOUR_STORE_ID', storeKey: 'process.env.KESTREL_STORE_KEY', cancelUrl: 'https://shop.example.org/cart' };
  return [
    'Digital wallet and payment gateway API. The operations tagged **Store API** are what a merchant server calls with its `storeId` and `storeKey` headers; ' +
      'the signed store callback is under `webhooks`. Amounts are major units (12.5); errors answer `{ status: "error", error, code, fields? }`.',
    '## The typed client: @kestrel/sdk',
    '```sh\n' + SDK_INSTALL + '\n```',
    '```js\n' + sdkCreateSnippet(values) + '\n```',
    '```js\n' + sdkVerifySnippet(values) + '\n```',
  ].join('\n\n');
}

function defaultOperationId(method: string, url: string): string {
  const words = url.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return [method.toLowerCase(), ...words.map((word) => word.charAt(0).toUpperCase() + word.slice(1))].join('');
}

/**
 * Whether an error status carries Retry-After: a 429 and a 503 always; a 409 when the operation
 * can answer `attempt_in_progress` (another attempt of the payment holds it until a known time).
 */
function retryAfterOn(status: number, refusals: readonly RefusalCode[]): boolean {
  return status === 429 || status === 503 || (status === 409 && refusals.includes('attempt_in_progress'));
}

/** A status's description: what it means, and the codes this operation answers it with. */
function errorDescription(status: number, refusals: readonly RefusalCode[]): string {
  const codes = [...new Set(refusals.filter((code) => statusOf(code) === status && !UNIVERSAL_REFUSALS.includes(code)).map(wireCodeOf))];
  const meaning = ERROR_DESCRIPTIONS[status] ?? 'Error';
  return codes.length === 0 ? meaning : `${meaning}. Codes: ${codes.map((code) => `\`${code}\``).join(', ')}`;
}

function completeOperation(operation: Json, facts: RouteFacts): void {
  const { doc } = facts;
  operation.security = SECURITY[facts.protection];
  const responses = (operation.responses ??= {}) as Json;
  const declared = Object.keys(responses).filter((status) => Number(status) >= 400).map(Number);
  for (const status of new Set([...errorStatuses(facts), ...declared])) {
    const existing = responses[String(status)];
    responses[String(status)] = {
      description: existing?.description && existing.description !== 'Default Response' ? existing.description : errorDescription(status, facts.refusals),
      ...(retryAfterOn(status, facts.refusals) ? { headers: { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } } } } : {}),
      content: { 'application/json': { schema: errorRef, ...(doc?.errorExample?.[status] ? { example: doc.errorExample[status] } : {}) } },
    };
  }
  const successStatus = Object.keys(responses).find((status) => /^[23]/.test(status));
  for (const [status, answer] of Object.entries(responses)) {
    if (/^[23]/.test(status) && answer.description === 'Default Response') answer.description = operation.summary ?? 'Success';
  }
  if (doc?.binary && successStatus) {
    responses[successStatus] = {
      description: doc.binary.description,
      content: Object.fromEntries(doc.binary.mediaTypes.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
    };
  }
  if (doc?.redirect && responses['303']) {
    responses['303'] = {
      description: doc.redirect,
      headers: { Location: { description: 'Where the customer goes next', schema: { type: 'string', format: 'uri' } } },
    };
  }
  if (doc?.multipart) {
    operation.requestBody = {
      required: true,
      content: { 'multipart/form-data': { schema: doc.multipart } },
    };
  }
  if (doc?.requestExample !== undefined) {
    const media = operation.requestBody?.content?.['application/json'];
    if (media) media.example = doc.requestExample;
  }
  if (doc?.responseExample !== undefined && successStatus) {
    const media = responses[successStatus]?.content?.['application/json'];
    if (media) media.example = doc.responseExample;
  }
  if (doc?.idempotent) {
    const parameters = (operation.parameters ??= []) as Json[];
    const existing = parameters.find((parameter) => parameter.in === 'header' && String(parameter.name).toLowerCase() === 'idempotency-key');
    const idempotency = {
      in: 'header',
      name: 'Idempotency-Key',
      required: doc.idempotent === 'required',
      description: 'Makes a retry safe: the same key answers the first result instead of acting twice.',
      schema: { type: 'string', maxLength: 200 },
    };
    if (existing) Object.assign(existing, idempotency);
    else parameters.push(idempotency);
  }
}

/** Removes component schemas nothing refers to (the registry names every contract; few are used). */
function dropUnusedComponents(document: Json): void {
  const schemas = (document.components?.schemas ?? {}) as Json;
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')) {
        const name = child.slice('#/components/schemas/'.length);
        if (!used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        }
      } else visit(child);
    }
  };
  const { components, ...rest } = document;
  visit(rest);
  visit({ ...components, schemas: undefined });
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}

/**
 * The zod type provider names a request form `<Name>Input` (its output twin would be `<Name>`);
 * where no output twin is used, the plain name reads better in a generated client.
 */
function dropInputSuffix(document: Json): void {
  const schemas = (document.components?.schemas ?? {}) as Json;
  const renames = new Map<string, string>();
  for (const name of Object.keys(schemas)) {
    const plain = name.replace(/Input$/, '');
    if (plain !== name && !(plain in schemas)) renames.set(name, plain);
  }
  if (renames.size === 0) return;
  const renamed = JSON.parse(JSON.stringify(document), (key, value) => {
    if (key === '$ref' && typeof value === 'string') {
      const name = value.slice('#/components/schemas/'.length);
      const plain = renames.get(name);
      return plain ? `#/components/schemas/${plain}` : value;
    }
    return value;
  }) as Json;
  const nextSchemas: Json = {};
  for (const [name, schema] of Object.entries(renamed.components.schemas as Json)) nextSchemas[renames.get(name) ?? name] = schema;
  renamed.components.schemas = nextSchemas;
  Object.assign(document, renamed);
}

/**
 * Every JSON request body and success answer carries an example: the table's hand-written one
 * where it has one (the store API), otherwise one composed from the schema by openapi-sampler,
 * which takes each field's example from the shared contracts (`withExample`) and a
 * typical value for its type and format elsewhere. Redocly's recommended rules check each
 * example against its schema, so a composed example cannot drift from the contract.
 */
function sampleMissingExamples(document: Json): void {
  const fill = (media: Json | undefined, direction: 'request' | 'response'): void => {
    if (!media?.schema || media.example !== undefined || media.examples !== undefined) return;
    const options = { quiet: true, ...(direction === 'request' ? { skipReadOnly: true } : { skipWriteOnly: true }) };
    media.example = sample(media.schema, options, document);
  };
  for (const operations of Object.values(document.paths as Record<string, Json>)) {
    for (const operation of Object.values(operations) as Json[]) {
      fill(operation.requestBody?.content?.['application/json'], 'request');
      for (const [status, answer] of Object.entries((operation.responses ?? {}) as Json)) {
        if (/^2/.test(status)) fill(answer?.content?.['application/json'], 'response');
      }
    }
  }
}
