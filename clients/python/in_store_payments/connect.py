"""A client with its credential set once, and the API's error shape as an exception."""

from typing import Any, Optional

from in_store_payments_client import AuthenticatedClient
from in_store_payments_client.types import Response


class ApiError(Exception):
    """A non-2xx answer: ``status`` and the service's ``message`` (which names the field for a 400)."""

    def __init__(self, status: int, message: str):
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message


def connect(base_url: str, *, api_key: Optional[str] = None, session_token: Optional[str] = None, timeout: float = 30.0) -> AuthenticatedClient:
    """An API client for an API key (``isp_live_...``/``isp_test_...``) or a dashboard session token: one of the two."""
    if (api_key is None) == (session_token is None):
        raise ValueError("give exactly one of api_key and session_token")
    import httpx

    return AuthenticatedClient(base_url=base_url.rstrip("/"), token=api_key or session_token or "", prefix="Bearer", timeout=httpx.Timeout(timeout))


def unwrap(response: Response[Any]) -> Any:
    """The parsed answer of a ``sync_detailed`` call; ``ApiError`` for anything but 2xx."""
    status = int(response.status_code)
    if 200 <= status < 300:
        return response.parsed
    parsed = response.parsed
    message = getattr(parsed, "message", None) or response.content.decode("utf-8", "replace")
    raise ApiError(status, message)
