"""The client against a running service (scripts/ci/python-client.sh starts one): a store, a
terminal, a webhook destination and a payment through the generated operations; the customer pays
at the sandbox device; the webhook that follows verifies with verify_webhook; a bad request is an
ApiError naming the field."""

import json
import os
import shlex
import subprocess
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, HTTPServer

import httpx
import pytest

from in_store_payments import ApiError, connect, unwrap, verify_webhook
from in_store_payments_client.api.payments import create_payment, sync_payment_status
from in_store_payments_client.api.stores import create_store
from in_store_payments_client.api.terminals import create_terminal
from in_store_payments_client.api.webhooks import create_webhook_config
from in_store_payments_client.models import CreatePaymentRequest, StoreInput, TerminalInput, WebhookConfigCreate

API = os.environ["ISP_API_URL"]
SANDBOX = os.environ["ISP_SANDBOX_URL"]
KEY = os.environ["ISP_API_KEY"]
MERCHANT = os.environ["ISP_MERCHANT"]
ADMIN = shlex.split(os.environ["ISP_ADMIN"])  # the operator CLI, for the device link


class Receiver(BaseHTTPRequestHandler):
    received: list = []

    def do_POST(self):  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        Receiver.received.append((body, self.headers.get("X-Webhook-Signature")))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def receiver():
    server = HTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hooks"
    server.shutdown()


def test_a_payment_end_to_end_and_its_verified_webhook(receiver):
    client = connect(API, api_key=KEY)
    store = unwrap(create_store.sync_detailed(MERCHANT, client=client, body=StoreInput.from_dict(
        {"name": "Python Street", "country": "DE", "timezone": "Europe/Berlin", "defaultCurrency": "EUR"})))
    terminal = unwrap(create_terminal.sync_detailed(MERCHANT, store.external_id, client=client, body=TerminalInput.from_dict({"label": "Till P"})))
    device = f"dev-py-{uuid.uuid4().hex[:8]}"
    subprocess.run([*ADMIN, "terminal:link", "--merchant", MERCHANT, "--store", store.external_id,
                    "--terminal", terminal.external_id, "--device", device, "--json"], check=True, capture_output=True)
    config = unwrap(create_webhook_config.sync_detailed(client=client, body=WebhookConfigCreate.from_dict({"url": receiver})))

    payment = unwrap(create_payment.sync_detailed(client=client, body=CreatePaymentRequest.from_dict({
        "merchantExternalId": MERCHANT, "storeExternalId": store.external_id, "terminalExternalId": terminal.external_id,
        "amount": 12.5, "currency": "EUR", "reference": f"py-{uuid.uuid4().hex[:8]}"})))
    assert payment.status == "AWAITING_TERMINAL"
    assert payment.amount == 12.5

    assert httpx.post(f"{SANDBOX}/sim/devices/{device}/customer", json={"action": "pay"}).status_code == 200
    deadline = time.time() + 30
    while time.time() < deadline:
        status = unwrap(sync_payment_status.sync_detailed(payment.id, client=client)).status
        if status == "CAPTURED":
            break
        time.sleep(0.2)
    assert status == "CAPTURED"

    captured = None
    while time.time() < deadline and captured is None:
        captured = next(((b, s) for b, s in Receiver.received if json.loads(b).get("eventType") == "PAYMENT_CAPTURED"), None)
        time.sleep(0.1)
    assert captured is not None, "no PAYMENT_CAPTURED webhook arrived"
    body, signature = captured
    assert json.loads(body)["data"]["pspReference"] == payment.psp_reference
    assert verify_webhook(body, signature, config.secret)
    assert not verify_webhook(body + b" ", signature, config.secret)
    assert not verify_webhook(body, signature, config.secret + "x")


def test_a_bad_request_is_an_api_error_naming_the_field():
    client = connect(API, api_key=KEY)
    with pytest.raises(ApiError) as raised:
        unwrap(create_payment.sync_detailed(client=client, body=CreatePaymentRequest.from_dict({
            "merchantExternalId": MERCHANT, "storeExternalId": "store_none", "terminalExternalId": "term_none",
            "amount": -1, "currency": "EUR"})))
    assert raised.value.status == 400
    assert raised.value.message.startswith("amount:")


def test_a_wrong_key_is_401():
    client = connect(API, api_key="isp_test_" + "0" * 40)
    with pytest.raises(ApiError) as raised:
        unwrap(sync_payment_status.sync_detailed(str(uuid.uuid4()), client=client))
    assert raised.value.status == 401
