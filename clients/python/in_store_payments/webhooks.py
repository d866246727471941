"""Webhook signatures (docs/webhooks.md, "What a delivery looks like"): Base64 of HMAC-SHA256 over the exact body bytes, keyed with the
destination's signing secret, sent in the X-Webhook-Signature header."""

import base64
import hashlib
import hmac
import re
from typing import Optional, Union

_SHAPE = re.compile(r"^[A-Za-z0-9+/]{43}=$")


def verify_webhook(raw_body: Union[bytes, str], signature: Optional[str], secret: str) -> bool:
    """True when ``signature`` (the X-Webhook-Signature value) signs ``raw_body`` under ``secret``.

    Pass the body exactly as received, before parsing it. Constant-time; malformed input is
    simply False, never an exception.
    """
    if not isinstance(signature, str) or not isinstance(secret, str) or not secret:
        return False
    if isinstance(raw_body, str):
        raw_body = raw_body.encode("utf-8")
    if not isinstance(raw_body, (bytes, bytearray)):
        return False
    presented = signature.strip()
    if not _SHAPE.match(presented):
        return False
    expected = base64.b64encode(hmac.new(secret.encode("utf-8"), bytes(raw_body), hashlib.sha256).digest()).decode("ascii")
    return hmac.compare_digest(expected, presented)
