// What an agent card says it wants for authentication, in one line for an error: its
// `securitySchemes` (v1.0 ProtoJSON `{httpAuthSecurityScheme: {scheme}}`…, v0.3 OpenAPI-style
// `{type: 'http', scheme}`…) and which of them `securityRequirements` (v1.0) or `security` (v0.3)
// asks for, with the flag that sends it. Said when the agent answers 401 or 403, so the user
// learns what to pass instead of reading a refusal as the agent failing a check.
import type { JsonObject } from '../protocol/a2aTypes.ts';

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v.slice(0, 120) : undefined;
}

function httpScheme(name: string, scheme: JsonObject): string {
  const s = str(scheme.scheme) ?? 'bearer';
  const word = s.toLowerCase() === 'bearer' ? 'Bearer' : s;
  return `${name} (HTTP Authorization: ${word} …) — pass it with --header 'Authorization: ${word} $TOKEN'`;
}

function apiKeyScheme(name: string, a: JsonObject): string {
  const where = str(a.location) ?? str(a.in) ?? 'header';
  const header = str(a.name) ?? 'X-API-Key';
  return where.toLowerCase() === 'header'
    ? `${name} (API key in the ${header} header) — pass it with --header '${header}: $API_KEY'`
    : `${name} (API key in the ${where} "${header}", which the rig cannot send; only headers)`;
}

/** The kinds of scheme, by their v1.0 field and their v0.3 `type` (lower-cased), in the order tried. */
const SCHEME_KINDS: [field: string, type: string, describe: (name: string, scheme: JsonObject) => string][] = [
  ['httpAuthSecurityScheme', 'http', httpScheme],
  ['apiKeySecurityScheme', 'apikey', apiKeyScheme],
  [
    'oauth2SecurityScheme',
    'oauth2',
    (name) => `${name} (OAuth 2.0) — get a token yourself and pass --header 'Authorization: Bearer $TOKEN'`,
  ],
  [
    'openIdConnectSecurityScheme',
    'openidconnect',
    (name) => `${name} (OpenID Connect) — get an ID/access token and pass --header 'Authorization: Bearer $TOKEN'`,
  ],
  ['mtlsSecurityScheme', 'mutualtls', (name) => `${name} (mutual TLS, which the rig does not offer)`],
];

/** One scheme in words, with how to send it when the rig can (a header). */
function describeScheme(name: string, scheme: JsonObject): string {
  const type = str(scheme.type)?.toLowerCase();
  for (const [field, kind, describe] of SCHEME_KINDS) {
    const v1 = scheme[field];
    if (isObject(v1)) return describe(name, v1);
    if (type === kind) return describe(name, scheme);
  }
  return `${name} (a scheme the rig does not know)`;
}

/** The scheme names the card's requirements list, in order (v1.0 `securityRequirements[].schemes`, v0.3 `security`). */
function requiredNames(card: JsonObject): string[] {
  const names: string[] = [];
  const add = (entry: unknown) => {
    if (isObject(entry)) for (const name of Object.keys(entry)) if (!names.includes(name)) names.push(name);
  };
  if (Array.isArray(card.securityRequirements))
    for (const r of card.securityRequirements) add(isObject(r) ? r.schemes : undefined);
  if (Array.isArray(card.security)) for (const r of card.security) add(r);
  return names;
}

/**
 * What the card asks for, e.g. "the card asks for bearer (HTTP Authorization: Bearer …) — pass it
 * with --header 'Authorization: Bearer $TOKEN'"; or that it declares nothing.
 */
export function securityHint(card: JsonObject): string {
  const schemes = isObject(card.securitySchemes) ? card.securitySchemes : {};
  const declared = Object.keys(schemes).slice(0, 8);
  if (declared.length === 0)
    return 'the card declares no securitySchemes — ask its operator what to send and pass it with --header';
  const required = requiredNames(card).filter((n) => declared.includes(n));
  const named = required.length > 0 ? required : declared;
  const described = named.map((n) => (isObject(schemes[n]) ? describeScheme(n, schemes[n]) : `${n} (not an object)`));
  const verb = required.length > 0 ? 'asks for' : 'declares (no security requirement names one)';
  return `the card ${verb} ${described.join('; or ')}`;
}
