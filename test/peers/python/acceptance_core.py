"""SDK-independent half of the peers' acceptance-criteria extension (experimental-ext-acceptance v1).

Written from the extension's normative points and this project's wire decisions (URI, metadata keys,
error codes -32040..-32044, finite defaults and caps, who may decide, script `attempts`), not from
the rig's reference agent: an independent implementation is what lets the rig's acceptance checks
be trusted. Plain Python (stdlib + jsonschema), shared by both SDK adapters.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from referencing import Registry

from hitl_core import _pointer

URI = 'https://github.com/a2aproject/experimental-ext-acceptance/tree/main/v1'
CRITERIA_KEY = URI + '/criteria'
PENDING_KEY = URI + '/pendingAcceptance'
DECISION_KEY = URI + '/decision'
ERROR_KEY = URI + '/error'  # status-message metadata of an agent-evaluated FAILED task
DECIDERS_KEY = 'a2a-rig/deciders'
SCRIPT_KEY = 'a2a-rig/script'
ANONYMOUS = 'anonymous'

EVALUATORS = ('client', 'agent', 'human')
REASONS = ('SCHEMA_MISMATCH', 'MISSING_ARTIFACT', 'QUALITY_THRESHOLD_NOT_MET', 'OUT_OF_SCOPE', 'OTHER')

# Finite defaults and caps: absent limits are never unbounded.
DEFAULT_MAX_REJECTIONS = 3
MAX_REJECTIONS_CAP = 10
DEFAULT_TIMEOUT_S = 86_400
MAX_TIMEOUT_S = 604_800
MAX_REQUIRED_ARTIFACTS = 64
MAX_ARTIFACT_NAME_CHARS = 256
MAX_DESCRIPTION_CHARS = 4096
MAX_DECIDERS = 16
# artifactSchema guards, the same as a hitl response_schema gets: serialized size, subschema depth,
# pattern shapes a backtracking engine could blow up on, and no $ref leaving the document.
MAX_SCHEMA_BYTES = 64 * 1024
MAX_SCHEMA_DEPTH = 32
MAX_PATTERN_CHARS = 1024

CRITERIA_INVALID, CRITERIA_NOT_MET, DECISION_CONFLICT, DECISION_UNAUTHORIZED, DECISION_INVALID = (
    -32040, -32041, -32042, -32043, -32044)
MESSAGES = {
    CRITERIA_INVALID: 'acceptance_criteria_invalid', CRITERIA_NOT_MET: 'acceptance_criteria_not_met',
    DECISION_CONFLICT: 'acceptance_decision_conflict', DECISION_UNAUTHORIZED: 'acceptance_decision_unauthorized',
    DECISION_INVALID: 'acceptance_decision_invalid',
}

# Each breaks exactly one guarantee (the names the rig's reference agent uses for the same breakage).
FAULTS = {
    'acceptance-completes-without-waiting',  # activated tasks complete without a pending state
    'acceptance-accepts-second-decision',  # a decision on a decided task is "applied" again (200)
    'acceptance-ignores-authorization',  # any principal may decide
    'acceptance-parks-before-artifacts',  # the pending status comes before the attempt's artifacts
    'acceptance-forgets-rejections',  # the rejection count lives in memory: a restart resets it
    'acceptance-skips-criteria-validation',  # criteria are taken as sent, unchecked
    'acceptance-ignores-max-rejections',  # rejections past maxRejections retry forever
    'acceptance-ignores-retry-false',  # retry: false retries like a plain reject
    'acceptance-no-timeout',  # the acceptance timeout never fires
    'acceptance-drops-feedback',  # a rejection's feedback text is blanked before it reaches history
    # Not a broken guarantee but a crash point: the process dies (as by kill -9) right after a
    # decision's UPDATE commits and before the task is written, so tests can show the recovery.
    'crash-after-decision',
}


class Invalid(Exception):
    """A refused criteria or decision; the message is the reason put in error.data."""


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _subschemas(node: dict[str, Any]) -> list[Any]:
    out: list[Any] = []
    for key in ('properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'):
        if isinstance(node.get(key), dict):
            out += list(node[key].values())
    for key in ('items', 'prefixItems', 'allOf', 'anyOf', 'oneOf'):
        v = node.get(key)
        out += v if isinstance(v, list) else [v] if v is not None else []
    for key in ('not', 'if', 'then', 'else', 'contains', 'additionalProperties', 'unevaluatedProperties',
                'unevaluatedItems', 'propertyNames', 'additionalItems'):
        if key in node:
            out.append(node[key])
    return out


_LOOKAROUND_OR_BACKREF = re.compile(r'\(\?<?[=!]|\\[1-9]|\\k<')


def _pattern_problem(p: str) -> str | None:
    """Why a pattern could backtrack badly (or is not a regex at all); None when it is fine."""
    if len(p) > MAX_PATTERN_CHARS:
        return 'pattern too long'
    if _LOOKAROUND_OR_BACKREF.search(p):
        return 'pattern uses lookaround or a backreference (not linear-time)'
    stack: list[bool] = [False]  # per open group: does it contain a quantifier?
    i = 0
    while i < len(p):
        c = p[i]
        if c == '\\':
            i += 2
            continue
        if c == '[':  # skip a character class
            j = i + 1
            while j < len(p) and p[j] != ']':
                j += 2 if p[j] == '\\' else 1
            i = j + 1
            continue
        if c == '(':
            stack.append(False)
        elif c == ')' and len(stack) > 1:
            inner = stack.pop()
            if inner and i + 1 < len(p) and p[i + 1] in '*+{':
                return 'pattern nests quantifiers (catastrophic backtracking)'
            stack[-1] = stack[-1] or inner
        elif c in '*+?{':
            stack[-1] = True
        i += 1
    try:
        re.compile(p)
    except re.error as err:
        return f'pattern does not compile: {err}'
    return None


def check_schema(schema: Any) -> Draft202012Validator:
    """The artifactSchema guards; the compiled validator, or Invalid with why."""
    if not isinstance(schema, (dict, bool)):
        raise Invalid('artifactSchema must be a JSON Schema (object or boolean)')
    if len(json.dumps(schema, separators=(',', ':'), ensure_ascii=False).encode()) > MAX_SCHEMA_BYTES:
        raise Invalid(f'artifactSchema larger than {MAX_SCHEMA_BYTES} bytes')
    todo: list[tuple[Any, int]] = [(schema, 1)]
    while todo:
        node, depth = todo.pop()
        if not isinstance(node, dict):
            continue
        if depth > MAX_SCHEMA_DEPTH:
            raise Invalid(f'artifactSchema nests subschemas deeper than {MAX_SCHEMA_DEPTH}')
        for key in ('$ref', '$dynamicRef'):
            ref = node.get(key)
            if isinstance(ref, str) and not ref.startswith('#'):
                raise Invalid(f'artifactSchema {key} {ref!r} leaves the document (remote $ref is never fetched)')
        patterns = [node['pattern']] if isinstance(node.get('pattern'), str) else []
        patterns += list(node['patternProperties']) if isinstance(node.get('patternProperties'), dict) else []
        for p in patterns:
            problem = _pattern_problem(p)
            if problem:
                raise Invalid(f'artifactSchema {problem}: {p[:80]!r}')
        todo += [(s, depth + 1) for s in _subschemas(node)]
    try:
        Draft202012Validator.check_schema(schema)
        validator = Draft202012Validator(schema, registry=Registry())  # an empty registry fetches nothing
        for probe in (None, {}, [], '', 0):  # a $ref cycle that never consumes input shows up here
            validator.is_valid(probe)
    except SchemaError as err:
        raise Invalid(f'artifactSchema is not a valid Draft 2020-12 schema: {err.message[:200]}') from None
    except RecursionError:
        raise Invalid('artifactSchema recurses without bound ($ref cycle)') from None
    except Exception as err:  # unresolvable $ref and the like
        raise Invalid(f'artifactSchema does not compile: {str(err)[:200]}') from None
    return validator


CRITERIA_FIELDS = {'description', 'artifactSchema', 'requiredArtifacts', 'evaluator', 'acceptanceTimeoutSeconds',
                   'maxRejections'}


def validate_criteria(raw: Any, faults: set[str]) -> dict[str, Any]:
    """The criteria with defaults filled in, or Invalid. Absent criteria → the defaults."""
    if raw is None:
        raw = {}
    if 'acceptance-skips-criteria-validation' in faults and isinstance(raw, dict):
        return {'evaluator': 'client', 'maxRejections': DEFAULT_MAX_REJECTIONS,
                'acceptanceTimeoutSeconds': DEFAULT_TIMEOUT_S, **raw}
    if not isinstance(raw, dict):
        raise Invalid('criteria must be an object')
    unknown = sorted(set(raw) - CRITERIA_FIELDS)
    if unknown:
        raise Invalid(f'unknown criteria field(s): {", ".join(unknown)[:200]}')
    out: dict[str, Any] = {'evaluator': raw.get('evaluator', 'client'),
                           'maxRejections': raw.get('maxRejections', DEFAULT_MAX_REJECTIONS),
                           'acceptanceTimeoutSeconds': raw.get('acceptanceTimeoutSeconds', DEFAULT_TIMEOUT_S)}
    if out['evaluator'] not in EVALUATORS:
        raise Invalid(f'unknown evaluator (one of {", ".join(EVALUATORS)})')
    m = out['maxRejections']
    if not _is_int(m) or not 0 <= m <= MAX_REJECTIONS_CAP:
        raise Invalid(f'maxRejections must be an integer in 0..{MAX_REJECTIONS_CAP}')
    t = out['acceptanceTimeoutSeconds']
    if not _is_int(t) or not 1 <= t <= MAX_TIMEOUT_S:
        raise Invalid(f'acceptanceTimeoutSeconds must be an integer in 1..{MAX_TIMEOUT_S}')
    if 'description' in raw:
        if not isinstance(raw['description'], str) or len(raw['description']) > MAX_DESCRIPTION_CHARS:
            raise Invalid(f'description must be a string of at most {MAX_DESCRIPTION_CHARS} characters')
        out['description'] = raw['description']
    if 'requiredArtifacts' in raw:
        names = raw['requiredArtifacts']
        if (not isinstance(names, list) or len(names) > MAX_REQUIRED_ARTIFACTS
                or not all(isinstance(n, str) and 0 < len(n) <= MAX_ARTIFACT_NAME_CHARS for n in names)):
            raise Invalid(f'requiredArtifacts must be at most {MAX_REQUIRED_ARTIFACTS} non-empty names'
                          f' of at most {MAX_ARTIFACT_NAME_CHARS} characters')
        out['requiredArtifacts'] = names
    if 'artifactSchema' in raw:
        check_schema(raw['artifactSchema'])
        out['artifactSchema'] = raw['artifactSchema']
    return out


def validate_deciders(raw: Any) -> list[str]:
    if raw is None:
        return []
    if (not isinstance(raw, list) or len(raw) > MAX_DECIDERS
            or not all(isinstance(d, str) and re.fullmatch(r'[0-9a-fA-F]{64}', d) for d in raw)):
        raise Invalid(f'{DECIDERS_KEY} must be at most {MAX_DECIDERS} SHA-256 hex digests')
    return [d.lower() for d in raw]


def parse_decision(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise Invalid('decision must be an object')
    action = raw.get('action')
    if action == 'accept':
        if set(raw) - {'action'}:
            raise Invalid('an accept carries only action')
        return {'action': 'accept'}
    if action != 'reject':
        raise Invalid('action must be accept or reject')
    if set(raw) - {'action', 'reason', 'retry'}:
        raise Invalid('unknown decision field(s)')
    if raw.get('reason') not in REASONS:
        raise Invalid(f'a reject needs a reason: one of {", ".join(REASONS)}')
    retry = raw.get('retry', True)
    if not isinstance(retry, bool):
        raise Invalid('retry must be a boolean')
    return {'action': 'reject', 'reason': raw['reason'], 'retry': retry}


def principal(authorization: str | None) -> str:
    """SHA-256 hex of the bearer token, or anonymous without one."""
    if authorization and authorization.lower().startswith('bearer '):
        token = authorization[7:].strip()
        if token:
            return hashlib.sha256(token.encode()).hexdigest()
    return ANONYMOUS


def script_attempts(parts: Any) -> list[list[dict[str, Any]]]:
    """The artifact steps per attempt from the rig's script data part: `attempts`, else the script's own
    artifact steps as attempt 0. Only artifact steps with text, data or url are kept."""
    for part in parts if isinstance(parts, list) else []:
        data = part.get('data') if isinstance(part, dict) else None
        if isinstance(data, dict) and isinstance(data.get(SCRIPT_KEY), dict):
            script = data[SCRIPT_KEY]
            ok = lambda s: isinstance(s, dict) and isinstance(s.get('artifact'), dict)  # noqa: E731
            if isinstance(script.get('attempts'), list) and script['attempts']:
                return [[s['artifact'] for s in a if ok(s)] for a in script['attempts'][:64] if isinstance(a, list)]
            steps = [s['artifact'] for s in script.get('steps') or [] if ok(s)]
            if steps:
                return [steps]
    return []


def attempt_steps(attempts: list[list[dict[str, Any]]], n: int) -> list[dict[str, Any]]:
    if not attempts:  # no script: one JSON artifact saying which attempt produced it
        return [{'name': 'result', 'data': {'attempt': n + 1, 'summary': f'output of attempt {n + 1}'}}]
    return attempts[min(n, len(attempts) - 1)]


def self_check(criteria: dict[str, Any], steps: list[dict[str, Any]]) -> list[str]:
    """evaluator agent: what the attempt's artifacts fail of the criteria ([] = met)."""
    details: list[str] = []
    names = {s.get('name') for s in steps}
    details += [f'missing artifact {n!r}' for n in criteria.get('requiredArtifacts', []) if n not in names]
    if 'artifactSchema' in criteria:
        validator = Draft202012Validator(criteria['artifactSchema'], registry=Registry())
        for s in steps:
            if 'data' in s:
                try:
                    errs = [f'{_pointer(e.absolute_path) or "/"}: {e.message[:200]}'
                            for e in validator.iter_errors(s['data'])][:8]
                except RecursionError:
                    errs = ['schema recursion']
                details += [f'artifact {s.get("name")!r} at {e}' for e in errs]
    return details
