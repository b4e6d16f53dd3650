"""An in-process answer on a real client (``tests/support/botocore_answers.py``) and a fault
injector on the same client: the injector sees the call first, whichever was attached first.
"""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError

from tests.resilience.helpers_faults import FaultInjector
from tests.support.botocore_answers import answer, offline_client


def _no_entities(params: dict[str, Any]) -> dict[str, Any]:
    return {"Entities": []}


@pytest.mark.parametrize("injector_first", [False, True])
def test_a_fault_registered_first_answers_before_the_fake(injector_first: bool) -> None:
    # Given a Comprehend client answered in-process and a fault injector on it, attached in
    # either order, told to throttle the next DetectPiiEntities
    client = offline_client("comprehend")
    injector = FaultInjector(rate=0.0)
    if injector_first:
        injector.attach(client)
    answer(client, "DetectPiiEntities", _no_entities)
    if not injector_first:
        injector.attach(client)
    injector.force("DetectPiiEntities", "ThrottlingException", 400)
    # When the operation is called twice
    with pytest.raises(ClientError) as raised:
        client.detect_pii_entities(Text="Jane Doe", LanguageCode="en")
    second = client.detect_pii_entities(Text="Jane Doe", LanguageCode="en")
    # Then the first call met the fault, and the second the fake's answer
    assert raised.value.response["Error"]["Code"] == "ThrottlingException"
    assert second["Entities"] == []
    assert injector.seen["comprehend"] == 2


def test_an_operation_not_answered_is_left_to_the_service() -> None:
    # Given a Comprehend client answering DetectPiiEntities only
    client = offline_client("comprehend")
    answer(client, "DetectPiiEntities", _no_entities)
    calls: list[str] = []

    def record_and_refuse(event_name: str, **_: Any) -> Any:
        calls.append(event_name)
        raise RuntimeError("sent to the service")

    client.meta.events.register("before-send", record_and_refuse)
    # When another operation is called
    with pytest.raises(RuntimeError):
        client.detect_dominant_language(Text="hello")
    # Then it went on towards the service
    assert calls == ["before-send.comprehend.DetectDominantLanguage"]
