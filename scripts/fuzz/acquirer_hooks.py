"""The fuzz hooks' share for acquirer accounts and routes (docs/acquirers.md), used by fuzz_hooks.py.

Account and route bodies get real account ids, stores, acquirer/mode pairs and credentials of
the right form most of the time, so generated cases reach every field's check and the writes
behind them, not only the first 400. Route bodies only ever name the run's sandbox accounts
successfully: a route to a Stripe account would send the next payments to Stripe, which the run
has not got (its STRIPE_API_BASE is a closed loopback port, so such a payment would be a 503).
"""

from __future__ import annotations

from typing import Any, Callable

ACQUIRERS = ["sandbox", "stripe", "adyen"]
MODES = ["live", "test"]
ACCOUNTS_PATH = "/api/dashboard/acquirer-accounts"
ROUTES_LABEL = "PUT /api/dashboard/acquirer-routes"
NOTIFICATIONS_PATH = "/internal/acquirer/{accountId}/notifications"


class AcquirerHooks:
    def __init__(self, fixtures: dict) -> None:
        a = fixtures["acquirerAccounts"]
        self.main: list[dict] = a["main"]
        self.victims: list[dict] = a["victims"]
        self.other: list[dict] = a["other"]
        self.every = self.main + self.victims + self.other
        self.by_id = {x["id"]: x for x in self.every}
        # What a route body may name: never a Stripe account (see above); Adyen's are refused (no adapter yet).
        self.nameable = {x["id"] for x in self.every if x["acquirer"] != "stripe"}
        self.stores_by_mode: dict[str, list[str]] = a["stores"]
        self.other_stores = [s["storeExternalId"] for s in fixtures["stores"]["other"]]

    # Path parameters ------------------------------------------------------------------------------

    def applies(self, path: str) -> bool:
        return path.startswith(ACCOUNTS_PATH + "/") or path == NOTIFICATIONS_PATH

    def ids_for(self, label: str) -> list[str]:
        """DELETE reaches only the victims and the other business; the rest any account."""
        pool = self.victims + self.other if label.startswith("DELETE ") else self.every
        return [x["id"] for x in pool]

    def protected(self) -> tuple[Callable[[str], bool], str, set, str]:
        """For fuzz_hooks' guard: no DELETE of the accounts the run's routes stand on."""
        return (lambda l: l == f"DELETE {ACCOUNTS_PATH}/{{id}}", "id", {x["id"] for x in self.main}, self.victims[0]["id"])

    # Bodies ---------------------------------------------------------------------------------------

    @staticmethod
    def credentials(acquirer: str, mode: str, n: int) -> dict:
        if acquirer == "stripe":
            return {"apiKey": f"sk_{mode}_fuzz{n:06d}", "webhookSecret": f"whsec_fuzz{n:06d}"}
        if acquirer == "adyen":
            return {"apiKey": f"AQEfuzz{n:06d}", "hmacKey": "44782DEF547AAA06C910C43932B1EB0C", "environment": mode.upper()}
        return {}

    def map_body(self, label: str, body: dict, params: dict, pick: Any) -> dict:
        if label == f"POST {ACCOUNTS_PATH}":
            return self._create(body, pick)
        if label == f"PUT {ACCOUNTS_PATH}/{{id}}":
            return self._update(body, params, pick)
        if label == ROUTES_LABEL:
            return self._routes(body, pick)
        return body

    def _fitting_credentials(self, acquirer: Any, mode: Any, pick: Any) -> dict | None:
        if acquirer not in ACQUIRERS or mode not in MODES:
            return None
        # Mostly the account's own mode; sometimes the other (a 400 naming credentials).
        own = mode if pick.chance(0.85) else ("test" if mode == "live" else "live")
        return self.credentials(acquirer, own, pick.pick(range(10**6)))

    def _create(self, body: dict, pick: Any) -> dict:
        if pick.chance(0.7):
            body["acquirer"] = pick.pick(ACQUIRERS)
        if pick.chance(0.7):
            body["mode"] = pick.pick(MODES)
        if pick.chance(0.7):
            fitting = self._fitting_credentials(body.get("acquirer"), body.get("mode"), pick)
            if fitting is not None:
                body["credentials"] = fitting
        return body

    def _update(self, body: dict, params: dict, pick: Any) -> dict:
        account = self.by_id.get(str(params.get("id")))
        if account and "credentials" in body and pick.chance(0.85):
            body["credentials"] = self._fitting_credentials(account["acquirer"], account["mode"], pick)
        return body

    def _routable(self, mode: Any) -> list[str]:
        return [x["id"] for x in self.main if x["acquirer"] == "sandbox" and x["mode"] == mode]

    def _routes(self, body: dict, pick: Any) -> dict:
        if pick.chance(0.8):
            body["mode"] = pick.pick(MODES)
        good = self._routable(body.get("mode"))
        # Mostly an account the routes take; else another mode's, an Adyen one, a victim, the other business's.
        choices = good * 15 + sorted(self.nameable)
        stores = self.stores_by_mode.get(body.get("mode"), [])
        # Mostly a store of the routes' mode; else the other mode's or the other business's.
        store_choices = stores * 6 + [s for m in self.stores_by_mode.values() for s in m] + self.other_stores
        rules = body.get("rules")
        if isinstance(rules, list):
            body["rules"] = [self._rule(r, i, choices, store_choices, pick) for i, r in enumerate(rules)]
        if "defaultAccountId" in body and pick.chance(0.7):
            body["defaultAccountId"] = pick.pick(choices + [None])
        return body

    def _rule(self, rule: Any, i: int, choices: list[str], store_choices: list[str], pick: Any) -> Any:
        if not isinstance(rule, dict):
            return rule
        rule = dict(rule)
        if pick.chance(0.9):
            rule["accountId"] = pick.pick(choices)
        if pick.chance(0.7):
            rule["name"] = f"rule {i}"  # unique names, so the later checks are reached
        match = rule.get("match")
        if isinstance(match, dict):
            match = dict(match)
            if "storeExternalIds" in match and store_choices and pick.chance(0.85):
                match["storeExternalIds"] = [pick.pick(store_choices)]
            if "currencies" in match and pick.chance(0.85):
                match["currencies"] = [pick.pick(["EUR", "EUR", "usd", "JPY", "GBP", "XXX"])]
            if "minAmount" in match and "maxAmount" in match and pick.chance(0.8):
                low = pick.pick([0, 0.01, 10, 250])
                match["minAmount"], match["maxAmount"] = low, low + pick.pick([0, 1, 1000])
            rule["match"] = match
        return rule

    # Guard ----------------------------------------------------------------------------------------

    def guard_routes(self, case: Any) -> None:
        """Whatever drew a route body (map_case, the generator, a link of the stateful phase), it
        names no Stripe account, neither a fixture nor one the fuzzer created: the next payments
        would go to it."""
        if f"{case.method.upper()} {case.path}" != ROUTES_LABEL or not isinstance(case.body, dict):
            return
        body = dict(case.body)
        unknown = "acct_notAnAccountOfThisRun0"

        def own(value: Any) -> Any:
            if isinstance(value, str) and value.startswith("acct_") and value not in self.nameable:
                return unknown
            return value

        if isinstance(body.get("rules"), list):
            body["rules"] = [{**r, "accountId": own(r.get("accountId"))} if isinstance(r, dict) and "accountId" in r else r for r in body["rules"]]
        if "defaultAccountId" in body:
            body["defaultAccountId"] = own(body["defaultAccountId"])
        case.body = body
