"""Schemathesis hooks and the "no write on a 4xx" check of the fuzz run (loaded by scripts/fuzz/run.ts
through SCHEMATHESIS_HOOKS=fuzz_hooks).

- map_case: path parameters, query values and body fields that name something (a business, store,
  terminal, payment, user, API key, webhook config or event, acquirer account) often take the real
  values of the run's fixtures, so calls get past the 404 into the handlers; acquirer account and
  route bodies get fitting acquirers, modes and credentials (acquirer_hooks.py). Choices are a function of the generated
  values, so Hypothesis replays and shrinks a case to the same request.
- before_call: credentials by the operation's security (mostly the fixture's, sometimes another
  role, another business or none), guards that keep destructive calls off the fixtures the run
  stands on, every webhook URL pointed at the run's loopback receiver, and a snapshot of the
  business tables (the probe) before the request.
- no_write_on_client_error: after a 4xx (429 aside) the tables must be unchanged. A difference is
  confirmed by replaying the request in a quiet moment, to rule out background writes (workflows,
  webhook deliveries); only a write the replay reproduces fails the run.

Environment: FUZZ_FIXTURES (JSON written by the runner), FUZZ_PROBE_URL, FUZZ_STATS_FILE.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
import urllib.parse
import urllib.request
from typing import Any

import requests
import schemathesis

import known_findings
from acquirer_hooks import AcquirerHooks

FIXTURES: dict[str, Any] = json.load(open(os.environ["FUZZ_FIXTURES"], encoding="utf-8"))
PROBE_URL = os.environ["FUZZ_PROBE_URL"]
STATS_FILE = os.environ.get("FUZZ_STATS_FILE")
# `npm run fuzz -- --self-test`: sign-ins name a real user and their documented write is not
# allowed, so the check must catch it (proof that the check sees writes).
SELF_TEST = os.environ.get("FUZZ_SELF_TEST") == "1"
# `--strict`: no baseline of known findings (known_findings.py).
STRICT = os.environ.get("FUZZ_STRICT") == "1"

CRED = FIXTURES["credentials"]
ACQUIRER = AcquirerHooks(FIXTURES)
MAIN = FIXTURES["merchants"]["main"]
OTHER = FIXTURES["merchants"]["other"]

# ---------------------------------------------------------------------------------------------------
# Deterministic choices


def _hash(*parts: Any) -> int:
    return int.from_bytes(hashlib.sha256(repr(parts).encode("utf-8", "backslashreplace")).digest()[:8], "big")


class Chooser:
    """Pseudo-random choices seeded by the generated case: the same case always gets the same ones."""

    def __init__(self, *seed: Any) -> None:
        self.seed = _hash(*seed)
        self.n = 0

    def chance(self, p: float) -> bool:
        self.n += 1
        return (_hash(self.seed, self.n) % 10_000) < p * 10_000

    def pick(self, items: list[Any]) -> Any:
        self.n += 1
        return items[_hash(self.seed, self.n, "pick") % len(items)]


# Header values the hooks put in; left out of a case's seed so a case sent again keeps its choices.
OWN_HEADER_VALUES = {
    *(f"Bearer {v}" for v in CRED.values()),
    *CRED.values(),
    "Bearer not-a-session",
    "isp_live_notakey",
}


def _seed_of(case: Any) -> tuple:
    body = case.body if isinstance(case.body, (dict, list, str, int, float, bool, type(None))) else repr(case.body)
    # Generated headers (schemathesis draws the security headers too) give operations without
    # parameters their variety.
    headers = sorted((str(k).lower(), str(v)) for k, v in (case.headers or {}).items() if str(v) not in OWN_HEADER_VALUES)
    return (case.method, case.path, case.path_parameters, case.query, body, headers)


def _label(case: Any) -> str:
    return f"{case.method.upper()} {case.path}"


# ---------------------------------------------------------------------------------------------------
# Pools of real values, by what an operation does with them

DESTRUCTIVE_USER_OPS = {
    "DELETE /api/users/{id}",
    "PUT /api/users/{id}/password",
    "POST /api/users/{id}/mfa/reset",
}


def _stores(label: str) -> list[dict]:
    s = FIXTURES["stores"]
    return s["victims"] + s["other"] if label.startswith("DELETE ") else s["main"] + s["victims"] + s["other"]


def _terminals(label: str) -> list[dict]:
    t = FIXTURES["terminals"]
    if label.startswith("DELETE ") and label.endswith("{terminalExternalId}"):
        return t["victims"] + t["other"]
    return t["main"] + t["victims"] + t["other"]


def _users(label: str) -> list[int]:
    u = FIXTURES["users"]
    if label in DESTRUCTIVE_USER_OPS:
        return u["victims"] + [u["other"]]
    return [u["admin"], u["viewer"], *u["victims"], u["other"]]


def _api_keys(_label: str) -> list[str]:
    # Rotate and revoke only: the keys the run authenticates with are never named.
    k = FIXTURES["apiKeys"]
    return k["victims"] + [k["other"]]


def _configs(label: str) -> list[str]:
    c = FIXTURES["webhookConfigs"]
    return c["victims"] + [c["other"]] if label.startswith("DELETE ") else [c["main"], *c["victims"], c["other"]]


def _payments() -> list[str]:
    p = FIXTURES["payments"]
    return p["main"] + p["other"]


def _events() -> list[str]:
    e = FIXTURES["webhookEvents"]
    return e["main"] + e["other"]


STORE_VALUES = {
    "country": ["DE", "fr", "US", "JP", "XX"],
    "timezone": ["Europe/Berlin", "UTC", "America/New_York", "Asia/Tokyo", "Mars/Olympus"],
    "defaultCurrency": ["EUR", "usd", "JPY", None],
    "mcc": ["5411", "5812", "541"],
}


@schemathesis.hook
def map_case(ctx: Any, case: Any) -> Any:
    label = _label(case)
    pick = Chooser(*_seed_of(case))
    params = case.path_parameters
    if params:
        params = dict(params)
        if "terminalExternalId" in params:
            if pick.chance(0.8):
                params.update({k: v for k, v in pick.pick(_terminals(label)).items() if k in params})
        elif "storeExternalId" in params:
            if pick.chance(0.8):
                params.update({k: v for k, v in pick.pick(_stores(label)).items() if k in params})
        elif "merchantExternalId" in params and pick.chance(0.8):
            params["merchantExternalId"] = pick.pick([MAIN, MAIN, MAIN, OTHER])
        if ACQUIRER.applies(case.path):
            name = "accountId" if "accountId" in params else "id"
            if name in params and pick.chance(0.8):
                params[name] = pick.pick(ACQUIRER.ids_for(label))
        elif "id" in params and pick.chance(0.8):
            if case.path.startswith("/api/users/"):
                params["id"] = pick.pick(_users(label))
            elif case.path.startswith("/api/api-keys/"):
                params["id"] = pick.pick(_api_keys(label))
            elif case.path.startswith(("/api/webhooks/configs/", "/api/dashboard/webhooks/configs/")):
                params["id"] = pick.pick(_configs(label))
            else:  # payments and transactions
                params["id"] = pick.pick(_payments())
        if "paymentId" in params and pick.chance(0.8):
            params["paymentId"] = pick.pick(_payments())
        if "eventId" in params and pick.chance(0.8):
            params["eventId"] = pick.pick(_events())
        case.path_parameters = params

    if isinstance(case.query, dict) and case.query:
        query = dict(case.query)
        if case.path == "/api/transactions":
            if "merchantExternalId" in query and pick.chance(0.7):
                query["merchantExternalId"] = pick.pick([MAIN, MAIN, OTHER])
            terminal = pick.pick(FIXTURES["terminals"]["main"])
            for key in ("storeExternalId", "terminalExternalId"):
                if key in query and pick.chance(0.6):
                    query[key] = terminal[key]
            if "q" in query and pick.chance(0.5):
                query["q"] = pick.pick(_payments() + FIXTURES["payments"]["references"])
        case.query = query

    if isinstance(case.body, dict):
        body = dict(case.body)
        if label == "POST /api/in-store/payments":
            if pick.chance(0.7):
                terminal = pick.pick(FIXTURES["terminals"]["main"] + FIXTURES["terminals"]["other"])
                body.update({k: v for k, v in terminal.items() if k in body or pick.chance(0.9)})
            # Money and timeout that the API accepts, most of the time: the generator's floats
            # rarely have at most two decimals.
            if pick.chance(0.7):
                body["currency"] = pick.pick(["EUR", "EUR", "usd", "JPY", "GBP"])
            if pick.chance(0.7):
                body["amount"] = pick.pick([1500, 7, 20000] if body.get("currency") == "JPY" else [12.5, 0.01, 1, 999.99, 250])
            if "terminalTimeoutMinutes" in body and pick.chance(0.6):
                body["terminalTimeoutMinutes"] = pick.pick([1, 2.5, 5, 60, 0.5, 61])
            if "reference" in body and pick.chance(0.2):
                body["reference"] = pick.pick(FIXTURES["payments"]["references"])
        elif case.path.startswith("/api/merchants/{merchantExternalId}/stores") and "terminals" not in case.path:
            # Store bodies: free-text fields in the schema that the API checks against real lists.
            for field, values in STORE_VALUES.items():
                if field in body and pick.chance(0.6):
                    body[field] = pick.pick(values)
        elif label in ("POST /api/users", "PUT /api/users/{id}/password") and isinstance(body.get("password"), str) and pick.chance(0.6):
            body["password"] = f"Fuzz{pick.pick(range(10**6)):06d}pass"
        elif label == "POST /api/auth/login" and SELF_TEST:
            body["username"] = pick.pick(FIXTURES["users"]["victimUsernames"])
        elif label == "POST /api/webhooks/events/{eventId}/redeliver" and "configId" in body and pick.chance(0.7):
            body["configId"] = pick.pick([FIXTURES["webhookConfigs"]["main"], FIXTURES["webhookConfigs"]["other"]])
        elif label == "POST /api/users" and "merchantExternalId" in body and pick.chance(0.7):
            body["merchantExternalId"] = MAIN
        else:
            body = ACQUIRER.map_body(label, body, case.path_parameters or {}, pick)
        case.body = body
    return case


# ---------------------------------------------------------------------------------------------------
# Credentials, guards, snapshot


def _security(case: Any) -> str:
    names = {name for requirement in (case.operation.definition.raw.get("security") or []) for name in requirement}
    if "Session" in names:
        return "session"
    if "ApiKey" in names or "BearerApiKey" in names:
        return "apiKey"
    return "none"


def _authenticate(case: Any, pick: Chooser) -> None:
    kind = _security(case)
    if kind == "none":
        return
    headers = case.headers if case.headers is not None else {}
    for name in [h for h in headers if h.lower() in ("authorization", "x-api-key")]:
        del headers[name]
    roll = pick.pick(range(100))
    if kind == "session":
        if _label(case) == "POST /api/auth/logout":
            token = CRED["logoutSession"] if roll < 85 else None  # never the session the run stands on
        elif roll < 80:
            token = CRED["adminSession"]
        elif roll < 88:
            token = CRED["viewerSession"]  # USER role: 403s
        elif roll < 94:
            token = CRED["otherAdminSession"]  # another business: 404s
        else:
            token = None
        if token:
            headers["Authorization"] = f"Bearer {token}"
        elif roll % 2:
            headers["Authorization"] = "Bearer not-a-session"
    else:
        if roll < 78:
            headers["X-API-Key"] = CRED["liveKey"]
        elif roll < 84:
            headers["Authorization"] = f"Bearer {CRED['liveKey']}"
        elif roll < 90:
            headers["X-API-Key"] = CRED["testKey"]  # sandbox mode: sees only test payments
        elif roll < 95:
            headers["X-API-Key"] = CRED["otherKey"]  # another business: 404s
        elif roll % 2:
            headers["X-API-Key"] = "isp_live_notakey"
    case.headers = headers


def _protected() -> list[tuple[Any, str, Any, Any]]:
    """(test on the label, path parameter, protected values, replacement): what destructive calls may not touch."""
    users, keys, configs = FIXTURES["users"], FIXTURES["apiKeys"], FIXTURES["webhookConfigs"]
    main_terminals = FIXTURES["terminals"]["main"]
    return [
        # The admin and viewer sessions stand on their users: no disable, password or MFA reset,
        # and no role or enablement change of the viewer (PUT on the admin itself is refused anyway).
        (lambda l: l in DESTRUCTIVE_USER_OPS or l == "PUT /api/users/{id}", "id", {str(users["admin"]), str(users["viewer"])}, users["victims"][0]),
        (lambda l: l.startswith("POST /api/api-keys/{id}") or l == "DELETE /api/api-keys/{id}", "id", {keys["live"], keys["test"]}, keys["victims"][0]),
        # Both surfaces: the dashboard's DELETE once removed the main destination through a stateful link.
        (lambda l: l in ("DELETE /api/webhooks/configs/{id}", "DELETE /api/dashboard/webhooks/configs/{id}"), "id", {configs["main"]}, configs["victims"][0]),
        (lambda l: l == "DELETE /api/merchants/{merchantExternalId}/stores/{storeExternalId}", "storeExternalId",
         {s["storeExternalId"] for s in FIXTURES["stores"]["main"]}, FIXTURES["stores"]["victims"][0]["storeExternalId"]),
        (lambda l: l.startswith("DELETE ") and l.endswith("{terminalExternalId}"), "terminalExternalId",
         {t["terminalExternalId"] for t in main_terminals}, FIXTURES["terminals"]["victims"][1]["terminalExternalId"]),
        ACQUIRER.protected(),
    ]


PROTECTED = _protected()


def _guard(case: Any) -> None:
    """Destructive calls never reach the fixtures the run stands on, whatever drew the values
    (map_case, the generator, or a link of the stateful phase)."""
    label = _label(case)
    params = case.path_parameters or {}
    for applies, name, protected, replacement in PROTECTED:
        if applies(label) and str(params.get(name)) in {str(p) for p in protected}:
            params = {**params, name: replacement}
            if name == "terminalExternalId":  # the spare terminal lives in the main store
                params["storeExternalId"] = FIXTURES["terminals"]["victims"][1]["storeExternalId"]
            case.path_parameters = params


def _point_webhooks_home(case: Any) -> None:
    """No delivery may leave the machine: a webhook URL that could parse becomes the loopback receiver."""
    if not case.path.startswith("/api/webhooks/configs") or not isinstance(case.body, dict):
        return
    url = case.body.get("url")
    if isinstance(url, str) and ":" in url:
        case.body = {**case.body, "url": FIXTURES["receiverUrl"]}


_SNAPSHOTS: dict[str, dict] = {}
_LOCK = threading.Lock()


def _probe(path: str, **params: str) -> dict:
    url = f"{PROBE_URL}{path}"
    if params:
        url += "?" + urllib.parse.urlencode(params)
    for attempt in range(1, 4):
        try:
            with urllib.request.urlopen(url, timeout=60) as res:
                return json.loads(res.read())
        except OSError:
            if attempt == 3:
                raise
            time.sleep(0.5 * attempt)
    raise AssertionError("unreachable")


@schemathesis.hook
def before_call(ctx: Any, case: Any, kwargs: dict) -> None:
    pick = Chooser("auth", *_seed_of(case))
    _guard(case)
    ACQUIRER.guard_routes(case)
    _point_webhooks_home(case)
    _authenticate(case, pick)
    snapshot = _probe("/snapshot")
    with _LOCK:
        _SNAPSHOTS[case.id] = snapshot
        if len(_SNAPSHOTS) > 1000:  # cases that never reached a check
            _SNAPSHOTS.pop(next(iter(_SNAPSHOTS)))


# ---------------------------------------------------------------------------------------------------
# Failures that are not the API's


@schemathesis.hook
def filter_failure(ctx: Any, failure: Any, case: Any, response: Any) -> bool:
    """status_code_conformance judges an operation's documented statuses; a probe with a method the
    operation does not have (TRACE on GET /health) is answered 405 by design, which no operation
    documents. Known findings (known_findings.py) are counted, not failed, unless --strict. Every
    other failure stands (a 5xx on a method probe is still reported by not_a_server_error)."""
    method_probe = case.method.upper() != str(case.operation.method).upper()
    if method_probe and type(failure).__name__ == "UndefinedStatusCode" and response.status_code < 500:
        return False
    # 503 with Retry-After is the API's documented "nothing was done, retry" when the acquirer or
    # Temporal does not answer in time (docs/payments.md), as on a busy machine: not a server defect
    # (the no-write check still judges it).
    if type(failure).__name__ == "ServerError" and response.status_code == 503 and (response.headers or {}).get("retry-after"):
        return False
    if not STRICT:
        for name, matches in known_findings.FAILURES:
            if matches(failure, case, response):
                _known(name)
                return False
    return True


@schemathesis.hook
def before_load_schema(ctx: Any, raw_schema: dict) -> None:
    if not STRICT:
        known_findings.patch_schema(raw_schema, _known)


# ---------------------------------------------------------------------------------------------------
# The check

# The documented writes on a 4xx: a failed sign-in counts towards the lockout and is audited; a
# refused refund is audited (every refund request is in the audit log: docs/refunds.md, "Rules").
ALLOWED_WRITES = (
    {}
    if SELF_TEST
    else {
        ("POST /api/auth/login", 401): {"User", "AuditLog"},
        ("POST /api/dashboard/payments/{paymentId}/refunds", 400): {"AuditLog"},
        ("POST /api/dashboard/payments/{paymentId}/refunds", 409): {"AuditLog"},
    }
)

_STATS: dict[str, Any] = {
    "checked4xx": 0,
    "confirmedWrites": 0,
    "backgroundWrites": 0,
    "backgroundTables": {},
    "allowedWrites": 0,
    "strict": STRICT,
    "knownFindings": {},
    "knownFindingNames": [name for name, _ in known_findings.FAILURES] + [f"schema pattern {p}" for p in known_findings.BROKEN_PATTERNS],
}


def _known(name: str) -> None:
    _STATS["knownFindings"][name] = _STATS["knownFindings"].get(name, 0) + 1
    _save_stats()


def _save_stats() -> None:
    if STATS_FILE:
        with open(STATS_FILE, "w", encoding="utf-8") as f:
            json.dump(_STATS, f)


def _changed(before: dict, after: dict) -> list[str]:
    return sorted(t for t, v in after["tables"].items() if before["tables"].get(t) != v)


def _quiet_snapshot(max_wait: float = 15.0) -> dict:
    """A snapshot once two in a row, 0.4 s apart, agree (background work has settled)."""
    deadline = time.monotonic() + max_wait
    last = _probe("/snapshot")
    while True:
        time.sleep(0.4)
        now = _probe("/snapshot")
        if now["tables"] == last["tables"] or time.monotonic() > deadline:
            return now
        last = now


# What the service writes in the background (payment workflows, the sweep, webhook deliveries).
# A change elsewhere after a 4xx is the request's even when a replay does not repeat it.
BACKGROUND_TABLES = {"Payment", "PaymentHistory", "WebhookEvent", "WebhookDelivery", "WebhookAttempt"}


def _is_client_error(status: int) -> bool:
    return 400 <= status < 500 and status != 429


def _describe(before: dict, after: dict, tables: list[str]) -> str:
    parts = []
    for t in tables:
        b, a = before["tables"][t], after["tables"][t]
        parts.append(f"{t} (rows {b['rows']} -> {a['rows']})")
    return ", ".join(parts)


@schemathesis.check
def no_write_on_client_error(ctx: Any, response: Any, case: Any) -> bool | None:
    """A 4xx response (429 aside) writes nothing to the business tables."""
    with _LOCK:
        before = _SNAPSHOTS.pop(case.id, None)
    status = response.status_code
    if not _is_client_error(status) or before is None:
        return None
    _STATS["checked4xx"] += 1
    after = _probe("/snapshot")
    changed = _changed(before, after)
    label = _label(case)
    # The documented write is set aside even when background work (a webhook delivery) wrote at
    # the same moment: only the other tables are left to explain.
    allowed = ALLOWED_WRITES.get((label, status), set())
    if set(changed) & allowed:
        _STATS["allowedWrites"] += 1
        changed = [t for t in changed if t not in allowed]
    if not changed:
        _save_stats()
        return None

    # Confirm: replay the very request in a quiet moment, up to three times; a write that each
    # replay reproduces is the request's, anything else was background work.
    first = _describe(before, after, changed)
    recent = _probe("/recent", since=before["at"], tables=",".join(changed))
    reproduced = None
    for _ in range(3):
        quiet = _quiet_snapshot()
        with requests.Session() as session:
            replay = session.send(response.request.copy(), timeout=120)
        after_replay = _probe("/snapshot")
        replay_changed = [t for t in _changed(quiet, after_replay) if t not in ALLOWED_WRITES.get((label, replay.status_code), set())]
        if not _is_client_error(replay.status_code) or not replay_changed:
            reproduced = None
            break
        settled = _quiet_snapshot(max_wait=3.0)
        if settled["tables"] == after_replay["tables"]:
            reproduced = (replay.status_code, _describe(quiet, after_replay, replay_changed))
            break
        reproduced = None  # background work during the replay: try again
    foreground = sorted(set(changed) - BACKGROUND_TABLES)
    if reproduced is None and foreground:
        # Not reproduced, but nothing in the background writes these tables: the request's write.
        reproduced = (None, f"nothing (the replay did not repeat it), yet no background work writes to {', '.join(foreground)}")
    if reproduced is None:
        _STATS["backgroundWrites"] += 1
        for t in changed:
            _STATS["backgroundTables"][t] = _STATS["backgroundTables"].get(t, 0) + 1
        _save_stats()
        return None

    _STATS["confirmedWrites"] += 1
    _save_stats()
    rows = json.dumps(recent, default=str)[:1500]
    replay_text = f"a replay answered {reproduced[0]} and wrote again to {reproduced[1]}" if reproduced[0] else f"a replay wrote {reproduced[1]}"
    raise AssertionError(f"{label} answered {status} and wrote to {first}; {replay_text}. Rows written during the first call: {rows}")
