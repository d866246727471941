"""The in-store payments API from Python.

The operations are generated from the API's OpenAPI document into ``in_store_payments_client``
(one module per operation, named by its operationId: ``api.payments.create_payment``). This
package adds what a generator cannot: a client with the key or session token set once
(``connect``), the error shape as an exception (``unwrap``, ``ApiError``) and ``verify_webhook``.
"""

from .connect import ApiError, connect, unwrap
from .webhooks import verify_webhook

__all__ = ["ApiError", "connect", "unwrap", "verify_webhook"]
