"""verify_webhook against a signature the service's own signing function made (src/webhooks/signature.ts)."""

from in_store_payments import verify_webhook

BODY = '{"type":"PAYMENT_CAPTURED","amount":12.5}'
SECRET = "whsec_python_vector_secret"
# signWebhookBody(BODY, SECRET) in the service
SIGNATURE = "Xxpk3tqmXnFWl8mHx8C3SSyGjB3Soj0nOIJk4a+coyI="


def test_the_services_signature_verifies_for_bytes_and_text():
    assert verify_webhook(BODY.encode(), SIGNATURE, SECRET)
    assert verify_webhook(BODY, SIGNATURE, SECRET)
    assert verify_webhook(BODY, f" {SIGNATURE} ", SECRET)


def test_an_altered_body_another_secret_or_a_malformed_header_is_false():
    assert not verify_webhook(BODY.replace("12.5", "125"), SIGNATURE, SECRET)
    assert not verify_webhook(BODY, SIGNATURE, SECRET + "x")
    assert not verify_webhook(BODY, None, SECRET)
    assert not verify_webhook(BODY, "", SECRET)
    assert not verify_webhook(BODY, SIGNATURE[:-2], SECRET)
    assert not verify_webhook(BODY, SIGNATURE, "")
    assert not verify_webhook(12, SIGNATURE, SECRET)  # type: ignore[arg-type]
